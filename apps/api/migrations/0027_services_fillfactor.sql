-- Every node report rewrites each of its services' rows (reported at, disk used, files). With
-- full pages those updates could not stay on their page (HOT), so every report left a dead row
-- and a new index entry behind: under the bench's one-second polls an account's 20 services
-- spread over ~46 pages and 180 index entries, which the services overview read on every call.
-- Half-empty pages keep those updates on their page, where the next read prunes them.
ALTER TABLE "services" SET (fillfactor = 50);
