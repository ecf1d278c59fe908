CREATE TABLE `funds` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`vintage_year` integer NOT NULL,
	`status` text NOT NULL,
	`access` text NOT NULL,
	`payment_instructions` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `funds_slug_unique` ON `funds` (`slug`);--> statement-breakpoint
-- The two funds of app/content/funds.ts (decision 038); fixed ids, so every database names them alike.
INSERT INTO `funds` (`id`, `slug`, `name`, `currency`, `vintage_year`, `status`, `access`) VALUES ('800929af-f242-4051-b32a-a45744254c2b', 'fund-i', 'Deeptech Fund I', 'USD', 2019, 'closed', 'open');--> statement-breakpoint
INSERT INTO `funds` (`id`, `slug`, `name`, `currency`, `vintage_year`, `status`, `access`) VALUES ('0715de9f-9032-4644-87aa-33dd4450aea5', 'fund-ii', 'Deeptech Fund II', 'USD', 2024, 'open', 'by_request');
