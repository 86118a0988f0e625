-- A label's PDF is deflate-compressed already: PostgreSQL's own compression of it (pglz, on by default for
-- values over 2 kB) gains little for the CPU of compressing on every insert and decompressing on every read.
-- Stored out of line as it is. Rows written before keep their form; both read the same.
ALTER TABLE labels ALTER COLUMN pdf SET STORAGE EXTERNAL;
