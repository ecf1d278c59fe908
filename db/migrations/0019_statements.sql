CREATE TABLE `firm_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notice_documents` (
	`entry_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`document_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`entry_id`, `entity_id`),
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `pdf_job_failures` (
	`job_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`job_id`, `entity_id`),
	FOREIGN KEY (`job_id`) REFERENCES `pdf_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `pdf_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`total` integer NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pdf_jobs_ref_idx` ON `pdf_jobs` (`kind`,`ref_id`);--> statement-breakpoint
CREATE INDEX `pdf_jobs_status_idx` ON `pdf_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `pnl_rows` (
	`fund_id` text NOT NULL,
	`quarter` text NOT NULL,
	`entity_id` text NOT NULL,
	`management_fees_minor` integer NOT NULL,
	`partnership_expenses_minor` integer NOT NULL,
	`other_income_minor` integer NOT NULL,
	`realized_gain_minor` integer NOT NULL,
	`unrealized_gain_change_minor` integer NOT NULL,
	`carried_interest_change_minor` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`fund_id`, `quarter`, `entity_id`),
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `pnl_rows_entity_idx` ON `pnl_rows` (`entity_id`,`fund_id`,`quarter`);--> statement-breakpoint
CREATE TABLE `statement_quarters` (
	`id` text PRIMARY KEY NOT NULL,
	`fund_id` text NOT NULL,
	`quarter` text NOT NULL,
	`version` integer NOT NULL,
	`status` text NOT NULL,
	`differences` text,
	`published_by` text,
	`published_at` integer NOT NULL,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`published_by`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `statement_quarters_version_idx` ON `statement_quarters` (`fund_id`,`quarter`,`version`);--> statement-breakpoint
CREATE INDEX `statement_quarters_status_idx` ON `statement_quarters` (`fund_id`,`status`,`quarter`);--> statement-breakpoint
CREATE TABLE `statements` (
	`id` text PRIMARY KEY NOT NULL,
	`quarter_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`figures` text NOT NULL,
	`document_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`quarter_id`) REFERENCES `statement_quarters`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `statements_quarter_entity_idx` ON `statements` (`quarter_id`,`entity_id`);--> statement-breakpoint
CREATE INDEX `statements_entity_idx` ON `statements` (`entity_id`,`quarter_id`);