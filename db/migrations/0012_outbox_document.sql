ALTER TABLE `email_outbox` ADD `document_id` text;--> statement-breakpoint
CREATE INDEX `email_outbox_document_idx` ON `email_outbox` (`document_id`,`status`);