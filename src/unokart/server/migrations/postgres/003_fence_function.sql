-- Fencing in one statement that fails the whole transaction when this process's token is older than the
-- table's: a change can then go to the database in one round trip (psycopg's pipeline mode), its BEGIN, fence,
-- rows and COMMIT together, and a fenced one is rolled back by the database itself.
CREATE FUNCTION unokart_fence(table_code text, token bigint) RETURNS void AS $$
BEGIN
    UPDATE tables SET fence = token WHERE code = table_code AND fence <= token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'table %: lease lost, write refused', table_code USING ERRCODE = 'UKF01';
    END IF;
END
$$ LANGUAGE plpgsql;
