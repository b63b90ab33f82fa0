package dev.ourios.query;

import dev.ourios.core.LogRecord;
import java.util.List;

/** The rows of a query, in the query's order, and what it cost. */
public record QueryResult(List<LogRecord> rows, QueryStats stats) {
    public QueryResult {
        rows = List.copyOf(rows);
    }
}
