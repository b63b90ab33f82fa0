package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * The top-level columns of a filter2 predicate, through every connective: what a reader must keep requested while the
 * column-index filter computes a row group's candidate rows (a predicate column left out would read as all null).
 */
class PredicateColumnsTest {
    @Test
    void every_column_a_predicate_names_is_found_through_and_or_and_not() {
        FilterPredicate p = FilterApi.and(
                FilterApi.or(FilterApi.gtEq(FilterApi.longColumn("effective_time_unix_nano"), 5L),
                        FilterApi.and(FilterApi.eq(FilterApi.longColumn("effective_time_unix_nano"), (Long) null),
                                FilterApi.lt(FilterApi.longColumn("time_unix_nano"), 9L))),
                FilterApi.and(FilterApi.not(FilterApi.eq(FilterColumns.binary("resource.service.name"),
                        Binary.fromString("cart"))),
                        FilterApi.gtEq(FilterApi.intColumn("severity_number"), 17)));
        assertEquals(Set.of("effective_time_unix_nano", "time_unix_nano", "resource.service.name", "severity_number"),
                PredicateColumns.of(p));
        // a dotted path names its top-level column
        assertEquals(Set.of("params"), PredicateColumns.of(FilterApi.notEq(FilterApi.binaryColumn("params.list"),
                Binary.fromString("x"))));
    }
}
