package dev.ourios.query.search;

import java.util.List;
import java.util.Objects;

/**
 * A parsed search query: a tree of AND, OR and NOT over terms. AND and OR hold at least two parts and never a part of
 * their own kind (the parser flattens {@code (a b) c} into one AND of three), so the top-level conjuncts of a query
 * are the parts of its root AND.
 */
public sealed interface Expr {

    /** Every row: the empty query and {@code *}. */
    record All() implements Expr {
    }

    record And(List<Expr> parts) implements Expr {
        public And {
            parts = List.copyOf(parts);
        }
    }

    record Or(List<Expr> parts) implements Expr {
        public Or {
            parts = List.copyOf(parts);
        }
    }

    record Not(Expr inner) implements Expr {
        public Not {
            Objects.requireNonNull(inner, "inner");
        }
    }

    /** One condition on one field of a row. */
    record Term(Field field, Match match) implements Expr {
        public Term {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(match, "match");
        }
    }
}
