import { redirect } from "react-router";
import { requestMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { jsonError } from "../http/json.server";
import { twoFactorMessages } from "~/content/two-factor";
import type { LpUser } from "./session.server";
import { getEnrolmentUser, getSessionUser } from "./session.server";

/** Where an admin without two-factor is sent: the only page its session opens. */
export const ADMIN_ENROLMENT_PATH = "/admin/account";

/**
 * Guards: call on the first line of a loader or action. They re-read the user
 * from the database on every request, so a rejected or revoked user loses
 * access at once. Pages are redirected; resource routes get 401/403 JSON.
 * An admin without two-factor holds a session limited to setting it up: every
 * guard refuses it (pages go to the set-up, JSON answers 403) but the admin
 * account page's.
 */

/** May use the investor portal: an approved investor, or an admin. */
export function canUseInvestorPortal(user: LpUser | null): user is LpUser {
  return !!user && (user.isAdmin || user.status === "approved");
}

function isAdmin(user: LpUser | null): user is LpUser {
  return !!user && user.isAdmin;
}

/** A signed-in admin who has not set up two-factor yet is sent to set it up (pages) or told to (JSON, 403). */
async function refuseEnrolment(request: Request, answer: "page" | "json"): Promise<void> {
  if (!(await getEnrolmentUser(request))) return;
  if (answer === "page") throw redirect(ADMIN_ENROLMENT_PATH);
  throw jsonError(new AppError("forbidden", twoFactorMessages.enrolmentRequired));
}

/** /lp/* pages: an approved investor or an admin, else /lp/login. */
export async function requireInvestor(request: Request): Promise<LpUser> {
  const user = await getSessionUser(request);
  if (!canUseInvestorPortal(user)) {
    await refuseEnrolment(request, "page");
    throw redirect("/lp/login");
  }
  return user;
}

/**
 * Where SPEC.md sends a non-admin away from an admin page: /admin/login when
 * the path starts with /admin or the host's first label is "admin", else /lp/login.
 */
export function adminLoginPathFor(request: Request): string {
  const url = new URL(request.url);
  const hostLabel = url.hostname.split(".")[0];
  return url.pathname.startsWith("/admin") || hostLabel === "admin" ? "/admin/login" : "/lp/login";
}

/** /admin/* pages: an admin, else the admin login (see adminLoginPathFor). */
export async function requireAdmin(request: Request): Promise<LpUser> {
  const user = await getSessionUser(request);
  if (!isAdmin(user)) {
    await refuseEnrolment(request, "page");
    throw redirect(adminLoginPathFor(request));
  }
  return user;
}

/**
 * The admin account page (two-factor set-up): an admin, with two-factor or
 * without it yet (`enrolling`); anyone else goes to the admin login.
 */
export async function requireAdminOrEnrolment(request: Request): Promise<{ user: LpUser; enrolling: boolean }> {
  const user = await getSessionUser(request);
  if (isAdmin(user)) return { user, enrolling: false };
  const enrolling = await getEnrolmentUser(request);
  if (enrolling) return { user: enrolling, enrolling: true };
  throw redirect(adminLoginPathFor(request));
}

/** JSON endpoints for any signed-in portal user (approved investor or admin): 401 otherwise. */
export async function requireApiUser(request: Request): Promise<LpUser> {
  const user = await getSessionUser(request);
  if (!user) {
    await refuseEnrolment(request, "json");
    throw jsonError(new AppError("unauthorized", requestMessages.authRequired));
  }
  if (!canUseInvestorPortal(user)) throw jsonError(new AppError("forbidden", requestMessages.notApproved));
  return user;
}

/** JSON endpoints for admins: 401 when signed out, 403 when not an admin. */
export async function requireApiAdmin(request: Request): Promise<LpUser> {
  const user = await getSessionUser(request);
  if (!user) {
    await refuseEnrolment(request, "json");
    throw jsonError(new AppError("unauthorized", requestMessages.authRequired));
  }
  if (!user.isAdmin) throw jsonError(new AppError("forbidden", requestMessages.adminRequired));
  return user;
}
