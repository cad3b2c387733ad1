-- An issue is stored by one statement that needs no transaction of its own (two round trips fewer per issue
-- of a burst). When another issue carried one of its items meanwhile, that statement must undo the items
-- it wrote itself: it calls this function, whose error aborts the whole statement (docs/decisions/0010).
CREATE FUNCTION "digest_abort_statement"(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'DG001', MESSAGE = reason;
END
$$;
