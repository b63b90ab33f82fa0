package dev.ourios.query.search;

import dev.ourios.core.Columns;
import java.util.Set;
import java.util.TreeSet;

/**
 * The top-level columns a compiled query reads of a row ({@link Compiler}, {@link SearchRow}): what a reader decodes
 * to decide the query before the rest of a row. A field added to the language must be added here with what it reads.
 */
final class TermColumns {
    private TermColumns() {
    }

    static Set<String> of(Expr e) {
        Set<String> out = new TreeSet<>();
        collect(e, out);
        return Set.copyOf(out);
    }

    private static void collect(Expr e, Set<String> out) {
        if (e instanceof Expr.And a) {
            a.parts().forEach(p -> collect(p, out));
        } else if (e instanceof Expr.Or o) {
            o.parts().forEach(p -> collect(p, out));
        } else if (e instanceof Expr.Not n) {
            collect(n.inner(), out);
        } else if (e instanceof Expr.Term t) {
            out.addAll(of(t.field().kind()));
        }
    }

    /** What a term on a field of {@code kind} reads. */
    static Set<String> of(Field.Kind kind) {
        return switch (kind) {
            case LINE -> Set.of(Columns.BODY, Columns.SEPARATORS, Columns.PARAMS); // dev.ourios.core.LineText
            case SERVICE -> Set.of(Columns.SERVICE_NAME, Columns.RESOURCE_ATTRIBUTES);
            case SCOPE -> Set.of(Columns.SCOPE_NAME);
            case SEVERITY -> Set.of(Columns.SEVERITY_NUMBER);
            case TRACE_ID -> Set.of(Columns.TRACE_ID);
            case SPAN_ID -> Set.of(Columns.SPAN_ID);
            case TEMPLATE_ID -> Set.of(Columns.TEMPLATE_ID);
            case RESOURCE -> Set.of(Columns.RESOURCE_ATTRIBUTES);
            case ATTRIBUTES -> Set.of(Columns.ATTRIBUTES);
        };
    }
}
