CREATE TABLE `document_recipients` (
	`document_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`document_id`, `user_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_recipients_user_idx` ON `document_recipients` (`user_id`,`document_id`);--> statement-breakpoint
CREATE TABLE `document_reminders` (
	`document_id` text NOT NULL,
	`user_id` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`document_id`, `user_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `scheduled_runs` (
	`key` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
ALTER TABLE `documents` ADD `audience` text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `watermark` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `documents_created_at_idx` ON `documents` (`created_at`);--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `headers` text;--> statement-breakpoint
CREATE INDEX `email_outbox_sent_at_idx` ON `email_outbox` (`sent_at`);--> statement-breakpoint
ALTER TABLE `lp_users` ADD `reference_code` text;--> statement-breakpoint
ALTER TABLE `lp_users` ADD `document_mail` text DEFAULT 'each' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `lp_users_reference_code_idx` ON `lp_users` (`reference_code`);