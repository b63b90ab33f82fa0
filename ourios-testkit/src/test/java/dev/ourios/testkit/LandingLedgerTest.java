package dev.ourios.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LandingLedgerTest {
    private final LandingLedger<String, String> ledger = new LandingLedger<>(r -> r);

    private List<String> with(List<String> a, String... more) {
        List<String> out = new ArrayList<>(a);
        out.addAll(List.of(more));
        return out;
    }

    @Test
    void a_read_of_exactly_the_acknowledged_rows_is_clean() {
        ledger.addBase("p", List.of("a", "b"));
        ledger.addBase("q", List.of("c"));
        int f = ledger.beginLate("p", ledger.claim("p", List.of("d", "e", "a")));
        assertEquals(1, f);
        assertEquals(List.of("a", "b"), ledger.acknowledged("p"), "not acknowledged before it completed");
        ledger.completeLate(f);
        assertEquals(List.of("a", "b", "d", "e"), ledger.acknowledged("p"));
        assertEquals(4, ledger.acknowledgedRows("p"));
        assertEquals(List.of("p", "q"), ledger.partitions());
        LandingLedger.Verdict v = ledger.judge("p", List.of("e", "a", "d", "b"), 1, 1);
        assertTrue(v.clean(), v.toString());
        assertEquals(4, v.rows());
    }

    @Test
    void a_file_in_flight_may_be_seen_whole_or_not_at_all_but_never_in_part() {
        ledger.addBase("p", List.of("a"));
        int f = ledger.beginLate("p", List.of("x", "y"));
        assertTrue(ledger.judge("p", List.of("a"), 0, f).clean());
        assertTrue(ledger.judge("p", List.of("a", "x", "y"), 0, f).clean());
        LandingLedger.Verdict torn = ledger.judge("p", List.of("a", "x"), 0, f);
        assertEquals(1, torn.torn(), torn.toString());
        assertEquals(0, torn.lost());
    }

    @Test
    void lost_duplicated_and_unknown_rows_are_counted() {
        ledger.addBase("p", List.of("a", "b"));
        ledger.addBase("q", List.of("c"));
        int f = ledger.beginLate("p", List.of("x"));
        ledger.completeLate(f);
        LandingLedger.Verdict v = ledger.judge("p", List.of("a", "a", "c", "zz"), f, f);
        assertEquals(2, v.lost(), v.toString()); // b and x
        assertEquals(1, v.duplicated(), v.toString());
        assertEquals(2, v.unknown(), v.toString()); // q's c, and zz nobody landed
        assertFalse(v.clean());
        assertTrue(v.toString().contains("a row nobody landed: zz"), v.toString());
    }

    @Test
    void a_file_begun_after_the_read_ended_must_not_be_seen() {
        ledger.addBase("p", List.of("a"));
        int f = ledger.beginLate("p", List.of("x"));
        LandingLedger.Verdict v = ledger.judge("p", List.of("a", "x"), 0, f - 1);
        assertEquals(1, v.unknown(), v.toString());
    }

    @Test
    void identities_are_unique() {
        ledger.addBase("p", List.of("a"));
        assertEquals(List.of("b"), ledger.claim("p", List.of("a", "b", "b")));
        assertThrows(IllegalArgumentException.class, () -> ledger.addBase("p", List.of("a")));
        assertThrows(IllegalArgumentException.class, () -> ledger.beginLate("q", List.of("b")), "claimed for p");
        assertThrows(IllegalArgumentException.class, () -> ledger.completeLate(1), "never begun");
    }
}
