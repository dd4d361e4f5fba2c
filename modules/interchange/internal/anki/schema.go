package anki

// schema11 is Anki's schema 11 (rslib/src/storage/schema11.sql): what a
// legacy package's collection holds, note types and decks as JSON in col.
const schema11 = `
create table col (
  id integer primary key, crt integer not null, mod integer not null, scm integer not null, ver integer not null,
  dty integer not null, usn integer not null, ls integer not null, conf text not null, models text not null,
  decks text not null, dconf text not null, tags text not null
);
create table notes (
  id integer primary key, guid text not null, mid integer not null, mod integer not null, usn integer not null,
  tags text not null, flds text not null, sfld integer not null, csum integer not null, flags integer not null,
  data text not null
);
create table cards (
  id integer primary key, nid integer not null, did integer not null, ord integer not null, mod integer not null,
  usn integer not null, type integer not null, queue integer not null, due integer not null, ivl integer not null,
  factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null
);
create table revlog (
  id integer primary key, cid integer not null, usn integer not null, ease integer not null, ivl integer not null,
  lastIvl integer not null, factor integer not null, time integer not null, type integer not null
);
create index ix_notes_usn on notes (usn);
create index ix_cards_usn on cards (usn);
create index ix_revlog_usn on revlog (usn);
create index ix_cards_nid on cards (nid);
create index ix_cards_sched on cards (did, queue, due);
create index ix_revlog_cid on revlog (cid);
create index ix_notes_csum on notes (csum);
`

// graves11 is schema 11's graves table; schema 18 keys it (schema18_upgrade.sql).
const graves11 = `create table graves (usn integer not null, oid integer not null, type integer not null);`

// schema18 is what Anki's upgrades 14 to 18 add (rslib/src/storage/upgrades):
// deck_config, config and tags tables, note types, fields, templates and
// decks in tables of their own, keyed graves. Anki declares the names
// "collate unicase", a collation only Anki registers: they are created
// "collate nocase" (the same order for ASCII names) and renamed in the
// schema once written (see unicase).
const schema18 = `
create table graves (oid integer not null, type integer not null, usn integer not null, primary key (oid, type)) without rowid;
create index idx_graves_pending on graves (usn);
create table deck_config (id integer primary key not null, name text not null collate nocase, mtime_secs integer not null,
  usn integer not null, config blob not null);
create table config (key text not null primary key, usn integer not null, mtime_secs integer not null, val blob not null) without rowid;
create table tags (id integer primary key not null, name text not null collate nocase, usn integer not null, config blob not null);
create table fields (ntid integer not null, ord integer not null, name text not null collate nocase, config blob not null,
  primary key (ntid, ord)) without rowid;
create unique index idx_fields_name_ntid on fields (name, ntid);
create table templates (ntid integer not null, ord integer not null, name text not null collate nocase,
  mtime_secs integer not null, usn integer not null, config blob not null, primary key (ntid, ord)) without rowid;
create unique index idx_templates_name_ntid on templates (name, ntid);
create index idx_templates_usn on templates (usn);
create table notetypes (id integer not null primary key, name text not null collate nocase, mtime_secs integer not null,
  usn integer not null, config blob not null);
create unique index idx_notetypes_name on notetypes (name);
create index idx_notetypes_usn on notetypes (usn);
create table decks (name text not null primary key collate nocase, id integer not null, mtime_secs integer not null,
  usn integer not null, common bytes not null, kind bytes not null);
create unique index idx_decks_id on decks (id);
`

// unicase renames the collation to Anki's in the written schema.
const unicase = `PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = replace(sql, 'collate nocase', 'collate unicase') WHERE sql LIKE '%collate nocase%';
PRAGMA writable_schema = OFF;`
