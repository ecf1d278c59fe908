CREATE TABLE `registration_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`name` text NOT NULL,
	`company` text,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`last_sent_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registration_requests_email_unique` ON `registration_requests` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `registration_requests_token_hash_unique` ON `registration_requests` (`token_hash`);--> statement-breakpoint
ALTER TABLE `lp_users` ADD `confirmed_at` integer;--> statement-breakpoint
-- Accounts made before registrations had to prove their address count as confirmed (issue 21; decision 028),
-- and the audit trail says so once, with how many (no row on a database without accounts).
INSERT INTO `audit_events` (`at`, `event`, `target_type`, `target_label`, `details`)
SELECT cast(unixepoch('subsec') * 1000 as integer), 'auth.accounts_marked_confirmed', 'user', 'every existing account',
  json_object('count', (SELECT count(*) FROM `lp_users`), 'reason', 'made before registrations had to confirm their e-mail address')
WHERE EXISTS (SELECT 1 FROM `lp_users`);--> statement-breakpoint
UPDATE `lp_users` SET `confirmed_at` = cast(unixepoch('subsec') * 1000 as integer);
