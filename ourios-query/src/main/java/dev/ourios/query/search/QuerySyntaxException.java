package dev.ourios.query.search;

/**
 * A search query that is not valid (docs/spec/query.md, section 8): the 1-based column, in Unicode code points, where
 * the expression fails, and why. The message is {@code column N: reason}.
 */
public final class QuerySyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int column;
    private final String reason;

    public QuerySyntaxException(int column, String reason) {
        super("column " + column + ": " + reason);
        if (column < 1) {
            throw new IllegalArgumentException("column must be at least 1, got " + column);
        }
        this.column = column;
        this.reason = reason;
    }

    /** The 1-based column (in code points) where the expression fails. */
    public int column() {
        return column;
    }

    /** What is wrong there, without the column. */
    public String reason() {
        return reason;
    }
}
