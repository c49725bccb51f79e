DROP INDEX graphmem_compacting IF EXISTS
