import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "~/modules/validation/z";
import { entityKindLabels, entityMessages, entityRoleLabels } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { ENTITY_KINDS, ENTITY_ROLES, entities, entityMembers, lpUsers } from "../../../db/schema";
import { audit, type AuditActor } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { AppError, type FieldErrors } from "../http/app-error";

/**
 * Investing entities and their members (issue 24 §2, DESIGN.md §10). An
 * entity (a person, a trust, a company) holds commitments; its members are
 * approved investor accounts, each an owner or a viewer. An investor sees
 * exactly the entities they are a member of: any other id is the unknown
 * id's 404 (entityFor). Members never see each other's e-mail addresses.
 * Admins create entities and add or remove members; each change writes its
 * audit row in the same transaction. An entity always keeps an owner.
 */

export type EntityKind = (typeof ENTITY_KINDS)[number];
export type EntityRole = (typeof ENTITY_ROLES)[number];
// Every kind and role has its words (a new one fails to compile here).
const kindWords: Record<EntityKind, string> = entityKindLabels;
const roleWords: Record<EntityRole, string> = entityRoleLabels;
void kindWords;
void roleWords;
type Entity = typeof entities.$inferSelect;

/** What an admin reads: every member with their account's id, name and e-mail. */
export type AdminEntityRead = {
  id: string;
  name: string;
  kind: EntityKind;
  createdAt: string;
  members: { userId: string; name: string; email: string; role: EntityRole }[];
};

/** What a member reads: their own role, and the others by name and role only. */
export type MemberEntityRead = {
  id: string;
  name: string;
  kind: EntityKind;
  role: EntityRole;
  members: { name: string; role: EntityRole; you: boolean }[];
};

/** The most members one request may name (the JSON body stays small; more can be added one by one). */
const MAX_MEMBERS = 50;

const memberSchema = z.object({
  userId: z.string({ error: entityMessages.userId }).trim().min(1, entityMessages.userId).max(64, entityMessages.userId),
  role: z.enum(ENTITY_ROLES, { error: entityMessages.role }),
});

export const createEntitySchema = z.object({
  name: z
    .string({ error: entityMessages.nameRequired })
    .trim()
    .min(1, entityMessages.nameRequired)
    .max(200, entityMessages.nameTooLong)
    // A name goes into pages and mail subjects: no control characters, line breaks or direction overrides.
    .refine((name) => !/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(name), entityMessages.nameCharacters),
  kind: z.enum(ENTITY_KINDS, { error: entityMessages.kind }),
  members: z.array(memberSchema, { error: entityMessages.ownerRequired }).min(1, entityMessages.ownerRequired).max(MAX_MEMBERS, entityMessages.tooManyMembers),
});
export type CreateEntityInput = z.output<typeof createEntitySchema>;

export const addMemberSchema = memberSchema;
export type AddMemberInput = z.output<typeof addMemberSchema>;

function actorOf(admin: Pick<LpUser, "id" | "email">): AuditActor {
  return { id: admin.id, email: admin.email };
}

function badFields(fields: FieldErrors): AppError {
  const first = Object.values(fields)[0]?.[0] ?? entityMessages.userId;
  return new AppError("bad_request", first, { fields });
}

/** The approved, non-admin accounts among `ids` (a member must be one). */
function approvedInvestorIds(db: Pick<Db, "select">, ids: string[]): Set<string> {
  if (!ids.length) return new Set();
  const rows = db
    .select({ id: lpUsers.id })
    .from(lpUsers)
    .where(and(inArray(lpUsers.id, ids), eq(lpUsers.status, "approved"), eq(lpUsers.isAdmin, false)))
    .all();
  return new Set(rows.map((r) => r.id));
}

function membersOf(db: Pick<Db, "select">, entityIds: string[]) {
  if (!entityIds.length) return [];
  return db
    .select({ entityId: entityMembers.entityId, userId: entityMembers.userId, role: entityMembers.role, name: lpUsers.name, email: lpUsers.email })
    .from(entityMembers)
    .innerJoin(lpUsers, eq(lpUsers.id, entityMembers.userId))
    .where(inArray(entityMembers.entityId, entityIds))
    // Owners first, then by name: the order every list shows.
    .orderBy(asc(entityMembers.entityId), sql`${entityMembers.role} = 'viewer'`, sql`${lpUsers.name} collate nocase`, asc(lpUsers.id))
    .all();
}

function toAdminRead(entity: Entity, members: ReturnType<typeof membersOf>): AdminEntityRead {
  return {
    id: entity.id,
    name: entity.name,
    kind: entity.kind,
    createdAt: entity.createdAt.toISOString(),
    members: members.filter((m) => m.entityId === entity.id).map(({ userId, name, email, role }) => ({ userId, name, email, role })),
  };
}

function toMemberRead(entity: Entity, members: ReturnType<typeof membersOf>, userId: string): MemberEntityRead {
  const own = members.filter((m) => m.entityId === entity.id);
  return {
    id: entity.id,
    name: entity.name,
    kind: entity.kind,
    role: own.find((m) => m.userId === userId)?.role ?? "viewer",
    members: own.map((m) => ({ name: m.name, role: m.role, you: m.userId === userId })),
  };
}

/** Every entity, by name (admins). */
export function listAllEntities(db: Db = getDb()): AdminEntityRead[] {
  const rows = db.select().from(entities).orderBy(sql`${entities.name} collate nocase`, asc(entities.id)).all();
  const members = membersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toAdminRead(row, members));
}

/** One page of the entities by name, with their members, and how many there are (the admin's list). */
export function listEntitiesPage(range: { offset: number; limit: number }, db: Db = getDb()): { rows: AdminEntityRead[]; total: number } {
  const rows = db
    .select()
    .from(entities)
    .orderBy(sql`${entities.name} collate nocase`, asc(entities.id))
    .limit(range.limit)
    .offset(range.offset)
    .all();
  const total = db.select({ n: sql<number>`count(*)` }).from(entities).get()?.n ?? 0;
  const members = membersOf(
    db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((row) => toAdminRead(row, members)), total };
}

/** The ids of the entities `userId` is a member of (the one rule for what an investor may read). */
export function memberEntityIds(userId: string, db: Pick<Db, "select"> = getDb()): string[] {
  return db
    .select({ id: entityMembers.entityId })
    .from(entityMembers)
    .where(eq(entityMembers.userId, userId))
    .all()
    .map((r) => r.id);
}

/** The entities an investor is a member of, by name. */
export function listMemberEntities(userId: string, db: Db = getDb()): MemberEntityRead[] {
  const ids = memberEntityIds(userId, db);
  if (!ids.length) return [];
  const rows = db.select().from(entities).where(inArray(entities.id, ids)).orderBy(sql`${entities.name} collate nocase`, asc(entities.id)).all();
  const members = membersOf(db, ids);
  return rows.map((row) => toMemberRead(row, members, userId));
}

/** What `user` may list: every entity for an admin, their own for an investor. */
export function listEntitiesFor(user: LpUser, db: Db = getDb()): AdminEntityRead[] | MemberEntityRead[] {
  return user.isAdmin ? listAllEntities(db) : listMemberEntities(user.id, db);
}

function findEntity(id: string, db: Pick<Db, "select">): Entity | undefined {
  return db.select().from(entities).where(eq(entities.id, id)).get();
}

function requireEntity(id: string, db: Pick<Db, "select">): Entity {
  const entity = findEntity(id, db);
  if (!entity) throw new AppError("not_found", entityMessages.notFound);
  return entity;
}

/** One entity as an admin reads it; 404 for an unknown id. */
export function adminEntity(id: string, db: Db = getDb()): AdminEntityRead {
  const entity = requireEntity(id, db);
  return toAdminRead(entity, membersOf(db, [entity.id]));
}

/**
 * One entity as `user` may read it: any for an admin, one they are a member
 * of for an investor. Anything else is the unknown id's 404, the same answer
 * as for an id that does not exist.
 */
export function entityFor(user: LpUser, id: string, db: Db = getDb()): AdminEntityRead | MemberEntityRead {
  if (user.isAdmin) return adminEntity(id, db);
  const entity = findEntity(id, db);
  const members = entity ? membersOf(db, [entity.id]) : [];
  if (!entity || !members.some((m) => m.userId === user.id)) throw new AppError("not_found", entityMessages.notFound);
  return toMemberRead(entity, members, user.id);
}

/** Create an entity with its members (at least one owner, each an approved investor), audited. */
export function createEntity(admin: Pick<LpUser, "id" | "email">, input: CreateEntityInput, db: Db = getDb()): AdminEntityRead {
  const fields: FieldErrors = {};
  const seen = new Set<string>();
  const approved = approvedInvestorIds(
    db,
    input.members.map((m) => m.userId),
  );
  input.members.forEach((member, i) => {
    if (seen.has(member.userId)) (fields[`members.${i}.userId`] ??= []).push(entityMessages.duplicateMember);
    else if (!approved.has(member.userId)) (fields[`members.${i}.userId`] ??= []).push(entityMessages.notApproved);
    seen.add(member.userId);
  });
  if (!input.members.some((m) => m.role === "owner")) (fields.members ??= []).push(entityMessages.ownerRequired);
  if (Object.keys(fields).length) throw badFields(fields);

  const id = db.transaction((tx) => {
    const row = tx.insert(entities).values({ name: input.name, kind: input.kind }).returning({ id: entities.id }).get();
    tx.insert(entityMembers)
      .values(input.members.map((m) => ({ entityId: row.id, userId: m.userId, role: m.role })))
      .run();
    audit(tx, "entity.created", {
      actor: actorOf(admin),
      target: { type: "entity", id: row.id, label: input.name },
      details: { kind: input.kind, members: input.members },
    });
    return row.id;
  });
  return adminEntity(id, db);
}

/** Add an approved investor to an entity (404 unknown entity, 400 not approved, 409 already a member), audited. */
export function addEntityMember(admin: Pick<LpUser, "id" | "email">, entityId: string, input: AddMemberInput, db: Db = getDb()): AdminEntityRead {
  db.transaction((tx) => {
    const entity = requireEntity(entityId, tx);
    if (!approvedInvestorIds(tx, [input.userId]).has(input.userId)) throw badFields({ userId: [entityMessages.notApproved] });
    const existing = tx
      .select({ role: entityMembers.role })
      .from(entityMembers)
      .where(and(eq(entityMembers.entityId, entityId), eq(entityMembers.userId, input.userId)))
      .get();
    if (existing) throw new AppError("conflict", entityMessages.alreadyMember, { fields: { userId: [entityMessages.alreadyMember] } });
    tx.insert(entityMembers).values({ entityId, userId: input.userId, role: input.role }).run();
    audit(tx, "entity.member_added", {
      actor: actorOf(admin),
      target: { type: "entity", id: entity.id, label: entity.name },
      details: { userId: input.userId, role: input.role },
    });
  });
  return adminEntity(entityId, db);
}

/**
 * Remove a member (404 unknown entity or not a member; 409 for the last
 * owner: an entity always keeps one), audited. The member loses the entity's
 * documents and capital account at once: every read checks membership.
 */
export function removeEntityMember(admin: Pick<LpUser, "id" | "email">, entityId: string, userId: string, db: Db = getDb()): AdminEntityRead {
  db.transaction((tx) => {
    const entity = requireEntity(entityId, tx);
    const members = tx.select({ userId: entityMembers.userId, role: entityMembers.role }).from(entityMembers).where(eq(entityMembers.entityId, entityId)).all();
    const member = members.find((m) => m.userId === userId);
    if (!member) throw new AppError("not_found", entityMessages.notMember);
    if (member.role === "owner" && members.filter((m) => m.role === "owner").length === 1) throw new AppError("conflict", entityMessages.lastOwner);
    tx.delete(entityMembers)
      .where(and(eq(entityMembers.entityId, entityId), eq(entityMembers.userId, userId)))
      .run();
    audit(tx, "entity.member_removed", {
      actor: actorOf(admin),
      target: { type: "entity", id: entity.id, label: entity.name },
      details: { userId, role: member.role },
    });
  });
  return adminEntity(entityId, db);
}
