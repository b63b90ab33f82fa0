package dev.ourios.query.search;

import dev.ourios.core.Bytes;
import dev.ourios.query.Query;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a search says about the fixed filters of a {@link Query}: conditions every matching row satisfies, taken from
 * the query's top-level conjuncts, that the engine prunes files, row groups and pages with (the same filters the
 * command flags set). {@code exact} is true when these filters decide the rows alone: every conjunct became one of
 * them, so the search needs no row filter (and a count decodes no whole row).
 *
 * @param service     {@code service:S}
 * @param severityMin the largest lower bound of the {@code severity} terms
 * @param traceId     {@code trace_id:HEX}
 * @param templateId  {@code template_id:N}
 * @param exact       whether the filters above are the whole query
 */
public record SearchHints(Optional<String> service, OptionalInt severityMin, Optional<byte[]> traceId,
        OptionalLong templateId, boolean exact) {

    public SearchHints {
        traceId = traceId.map(byte[]::clone);
    }

    @Override
    public Optional<byte[]> traceId() {
        return traceId.map(byte[]::clone);
    }

    /** The hints of a parsed query. */
    static SearchHints of(Expr root) {
        List<Expr> conjuncts = root instanceof Expr.And a ? a.parts()
                : root instanceof Expr.All ? List.of() : List.of(root);
        Optional<String> service = Optional.empty();
        OptionalInt severityMin = OptionalInt.empty();
        Optional<byte[]> traceId = Optional.empty();
        OptionalLong templateId = OptionalLong.empty();
        boolean exact = true;
        for (Expr e : conjuncts) {
            if (!(e instanceof Expr.Term t)) {
                exact = false;
                continue;
            }
            Match m = t.match();
            switch (t.field().kind()) {
                case SERVICE:
                    if (m instanceof Match.Equals eq && service.isEmpty()) {
                        service = Optional.of(eq.value());
                    } else {
                        exact = false;
                    }
                    break;
                case SEVERITY:
                    if (m instanceof Match.Range r && r.low() != null) {
                        // Severity numbers are 0..255 (parser): the lowest integer in range fits an int.
                        int low = NumericBounds.smallestInteger(r).max(BigInteger.ZERO)
                                .min(BigInteger.valueOf(256)).intValue();
                        if (severityMin.isEmpty() || low > severityMin.getAsInt()) {
                            exact &= severityMin.isEmpty();
                            severityMin = OptionalInt.of(low);
                        } else {
                            exact = false;
                        }
                        exact &= r.high() == null;
                    } else {
                        exact = false;
                    }
                    break;
                case TRACE_ID:
                    if (m instanceof Match.Equals eq && traceId.isEmpty()) {
                        traceId = Optional.of(Bytes.fromHex(eq.value()));
                    } else {
                        exact = false;
                    }
                    break;
                case TEMPLATE_ID:
                    if (m instanceof Match.Range r && r.low() != null && r.low().equals(r.high())
                            && r.lowInclusive() && r.highInclusive() && templateId.isEmpty()) {
                        templateId = OptionalLong.of(r.low().toBigIntegerExact().longValue());
                    } else {
                        exact = false;
                    }
                    break;
                default:
                    exact = false;
            }
        }
        return new SearchHints(service, severityMin, traceId, templateId, exact);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SearchHints h && service.equals(h.service) && severityMin.equals(h.severityMin)
                && Arrays.equals(traceId.orElse(null), h.traceId.orElse(null)) && templateId.equals(h.templateId)
                && exact == h.exact;
    }

    @Override
    public int hashCode() {
        return Objects.hash(service, severityMin, Arrays.hashCode(traceId.orElse(null)), templateId, exact);
    }

    @Override
    public String toString() {
        return "SearchHints[service=" + service + ", severityMin=" + severityMin + ", traceId="
                + traceId.map(Bytes::hex) + ", templateId=" + templateId + ", exact=" + exact + "]";
    }
}
