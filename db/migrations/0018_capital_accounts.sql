CREATE TABLE `call_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`entry_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`received_on` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `call_payments_entry_idx` ON `call_payments` (`entry_id`,`entity_id`,`amount_minor`);--> statement-breakpoint
CREATE INDEX `call_payments_entity_idx` ON `call_payments` (`entity_id`);--> statement-breakpoint
CREATE TABLE `call_reminders` (
	`entry_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`kind` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`entry_id`, `entity_id`, `kind`),
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `commitment_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`commitment_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`effective_on` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`commitment_id`) REFERENCES `commitments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `commitment_changes_commitment_idx` ON `commitment_changes` (`commitment_id`,`effective_on`);--> statement-breakpoint
CREATE TABLE `commitments` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`fund_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`accepted_on` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `commitments_entity_fund_idx` ON `commitments` (`entity_id`,`fund_id`);--> statement-breakpoint
CREATE INDEX `commitments_fund_idx` ON `commitments` (`fund_id`);--> statement-breakpoint
CREATE TABLE `document_recipient_entities` (
	`document_id` text NOT NULL,
	`entity_id` text NOT NULL,
	PRIMARY KEY(`document_id`, `entity_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_recipient_entities_entity_idx` ON `document_recipient_entities` (`entity_id`,`document_id`);--> statement-breakpoint
CREATE TABLE `entities` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `entities_name_idx` ON `entities` ("name" collate nocase);--> statement-breakpoint
CREATE TABLE `entity_members` (
	`entity_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`entity_id`, `user_id`),
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `entity_members_user_idx` ON `entity_members` (`user_id`,`entity_id`);--> statement-breakpoint
CREATE TABLE `ledger_allocations` (
	`entry_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`position` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	PRIMARY KEY(`entry_id`, `entity_id`, `position`),
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `ledger_allocations_entity_idx` ON `ledger_allocations` (`entity_id`,`entry_id`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`fund_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`number` integer,
	`date` text NOT NULL,
	`due_date` text,
	`correction_of` text,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`published_at` integer,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_number_idx` ON `ledger_entries` (`fund_id`,`kind`,`number`);--> statement-breakpoint
CREATE INDEX `ledger_entries_fund_idx` ON `ledger_entries` (`fund_id`,`kind`,`status`,`date`);--> statement-breakpoint
CREATE TABLE `ledger_lines` (
	`entry_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`description` text,
	`recallable` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`entry_id`, `position`),
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `valuations` (
	`id` text PRIMARY KEY NOT NULL,
	`fund_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`date` text NOT NULL,
	`nav_minor` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `valuations_fund_entity_date_idx` ON `valuations` (`fund_id`,`entity_id`,`date`);--> statement-breakpoint
CREATE INDEX `valuations_entity_idx` ON `valuations` (`entity_id`,`fund_id`,`date`);--> statement-breakpoint
CREATE INDEX `valuations_fund_date_idx` ON `valuations` (`fund_id`,`date`,`nav_minor`);