DROP INDEX `access_log_document_idx`;--> statement-breakpoint
ALTER TABLE `access_log` ADD `user_agent` text;--> statement-breakpoint
CREATE INDEX `access_log_document_idx` ON `access_log` (`document_kind`,`document_id`,`created_at`);