package dev.ourios.parquet.read;

import java.util.HashSet;
import java.util.Set;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.filter2.predicate.UserDefinedPredicate;

/**
 * The top-level columns a filter2 predicate reads: the first element of each column path it names. parquet-java's
 * column-index filter treats a predicate column that is not among the requested ones as missing (all null), so a
 * reader that computes a row group's candidate rows with fewer columns requested must keep these among them.
 */
final class PredicateColumns implements FilterPredicate.Visitor<Void> {
    private final Set<String> columns = new HashSet<>();

    private PredicateColumns() {
    }

    static Set<String> of(FilterPredicate predicate) {
        PredicateColumns c = new PredicateColumns();
        predicate.accept(c);
        return Set.copyOf(c.columns);
    }

    private Void column(Operators.Column<?> column) {
        columns.add(column.getColumnPath().toArray()[0]);
        return null;
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Eq<T> eq) {
        return column(eq.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.NotEq<T> notEq) {
        return column(notEq.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Lt<T> lt) {
        return column(lt.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.LtEq<T> ltEq) {
        return column(ltEq.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Gt<T> gt) {
        return column(gt.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.GtEq<T> gtEq) {
        return column(gtEq.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.In<T> in) {
        return column(in.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.NotIn<T> notIn) {
        return column(notIn.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Contains<T> contains) {
        return column(contains.getColumn());
    }

    @Override
    public Void visit(Operators.And and) {
        and.getLeft().accept(this);
        return and.getRight().accept(this);
    }

    @Override
    public Void visit(Operators.Or or) {
        or.getLeft().accept(this);
        return or.getRight().accept(this);
    }

    @Override
    public Void visit(Operators.Not not) {
        return not.getPredicate().accept(this);
    }

    @Override
    public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> Void visit(Operators.UserDefined<T, U> udp) {
        return column(udp.getColumn());
    }

    @Override
    public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> Void visit(
            Operators.LogicalNotUserDefined<T, U> udp) {
        return column(udp.getUserDefined().getColumn());
    }
}
