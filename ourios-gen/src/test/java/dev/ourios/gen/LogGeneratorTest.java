package dev.ourios.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LogGeneratorTest {
    private static final Instant HOUR = Instant.parse("2026-04-07T09:00:00Z");
    private static final GeneratorSpec SPEC = GeneratorSpec.of(List.of("acme", "globex/eu"), HOUR, 3, 4, 2_000, 42);

    @Test
    void sameSeedSameRows() {
        LogGenerator a = new LogGenerator(SPEC);
        LogGenerator b = new LogGenerator(SPEC);
        assertEquals(a.file("acme", 1, 2), b.file("acme", 1, 2));
        // Order of generation does not matter: each file has its own stream.
        b.file("globex/eu", 2, 3);
        assertEquals(a.file("acme", 1, 2), b.file("acme", 1, 2));
        List<LogRecord> streamed = new ArrayList<>();
        a.stream("acme", 1, 2).forEachRemaining(streamed::add);
        assertEquals(a.file("acme", 1, 2), streamed);
    }

    @Test
    void differentSeedOrFileDifferentRows() {
        LogGenerator a = new LogGenerator(SPEC);
        LogGenerator other = new LogGenerator(SPEC.withSeed(43));
        assertNotEquals(a.file("acme", 0, 0), other.file("acme", 0, 0));
        assertNotEquals(a.file("acme", 0, 0), a.file("acme", 0, 1));
        assertNotEquals(a.file("acme", 0, 0), a.file("acme", 1, 0));
        List<LogRecord> g = a.file("globex/eu", 0, 0);
        assertEquals("globex/eu", g.get(0).tenantId());
        assertNotEquals(a.file("acme", 0, 0).get(0).timeUnixNano(), g.get(0).timeUnixNano());
    }

    @Test
    void everyRowFallsInItsHourAndFilesInterleave() {
        LogGenerator gen = new LogGenerator(SPEC);
        for (String tenant : SPEC.tenants()) {
            for (int h = 0; h < SPEC.hours(); h++) {
                var partition = gen.partition(tenant, h);
                assertEquals(HOUR.plusSeconds(3600L * h), partition.hourStart());
                for (int f = 0; f < SPEC.filesPerHour(); f++) {
                    List<LogRecord> rows = gen.file(tenant, h, f);
                    assertEquals(SPEC.rowsPerFile(), rows.size());
                    long min = Long.MAX_VALUE;
                    long max = Long.MIN_VALUE;
                    boolean sorted = true;
                    for (int i = 0; i < rows.size(); i++) {
                        LogRecord r = rows.get(i);
                        assertEquals(partition, r.partitionKey(), "tenant " + tenant + " hour " + h + " file " + f);
                        assertEquals(r.effectiveTime(), r.effectiveTimeUnixNano());
                        min = Math.min(min, r.effectiveTime());
                        max = Math.max(max, r.effectiveTime());
                        sorted &= i == 0 || rows.get(i - 1).effectiveTime() <= r.effectiveTime();
                    }
                    assertFalse(sorted, "rows of a file come in random order");
                    assertTrue(max - min > 50 * 60 * 1_000_000_000L, "each file spans (almost) the whole hour");
                }
            }
        }
    }

    @Test
    void demoShape() {
        LogGenerator gen = new LogGenerator(SPEC);
        List<LogRecord> rows = new ArrayList<>();
        for (int f = 0; f < SPEC.filesPerHour(); f++) {
            rows.addAll(gen.file("acme", 0, f));
        }
        Map<String, Integer> perService = new HashMap<>();
        Map<String, Set<Long>> templates = new HashMap<>();
        Set<String> resourceJsons = new HashSet<>();
        int info = 0;
        int warnOrError = 0;
        int traced = 0;
        int timeZero = 0;
        for (LogRecord r : rows) {
            perService.merge(r.serviceName(), 1, Integer::sum);
            templates.computeIfAbsent(r.serviceName(), k -> new HashSet<>()).add(r.templateId());
            resourceJsons.add(r.resourceAttributes());
            assertEquals(Optional.of(r.serviceName()), AttributesJson.firstString(r.resourceAttributes(),
                    "service.name"));
            int resourceCount = AttributesJson.decode(r.resourceAttributes()).size();
            assertTrue(resourceCount >= 6 && resourceCount <= 21, "resource attributes " + resourceCount);
            assertTrue(AttributesJson.decode(r.resourceAttributes()).get(0).key().equals("service.name"));
            assertTrue(AttributesJson.decode(r.attributes()).size() <= 7);
            if (r.severityNumber() == 9) {
                info++;
                assertEquals(Set.of("cart", "accounting").contains(r.serviceName()) ? "Information" : "INFO",
                        r.severityText());
            } else {
                assertTrue(r.severityNumber() == 13 || r.severityNumber() == 17);
                warnOrError++;
            }
            if (r.traceId() != null) {
                traced++;
                assertEquals(1, r.flags());
            }
            if (r.timeUnixNano() == 0) {
                timeZero++;
            }
        }
        double n = rows.size();
        assertShare(perService, "cart", n, 0.50, 0.61);
        assertShare(perService, "recommendation", n, 0.16, 0.24);
        assertShare(perService, "currency", n, 0.09, 0.15);
        assertShare(perService, "ad", n, 0.07, 0.13);
        assertShare(perService, "kafka", n, 0.015, 0.045);
        assertTrue(perService.size() >= 10, "the small services appear too: " + perService.keySet());
        assertTrue(info / n > 0.95 && warnOrError > 0, info + " INFO, " + warnOrError + " WARN/ERROR");
        assertTrue(traced / n > 0.75, "most rows are traced: " + traced);
        assertTrue(timeZero > 0, "some rows have only an observed time");
        assertTrue(templates.get("cart").size() <= 3);
        assertTrue(templates.get("kafka").size() > 20, "kafka is noisy: " + templates.get("kafka").size());
        assertEquals(perService.size(), resourceJsons.size(), "one resource attribute string per service");
    }

    @Test
    void paramsSeparatorsAndBodiesAreConsistent() {
        int lossy = 0;
        for (LogRecord r : new LogGenerator(SPEC).file("acme", 0, 0)) {
            assertEquals(BodyKind.STRING, r.bodyKind());
            assertEquals(r.params().size() + 1, r.separators().size(), "separators invariant");
            assertTrue(r.templateId() != 0);
            if (r.lossyFlag()) {
                lossy++;
                assertArrayEquals(Template.render(r.separators(), r.params()), r.body());
            } else {
                assertNull(r.body());
                assertEquals(1.0f, r.confidence());
            }
        }
        assertTrue(lossy > 0 && lossy < 400, "a few lossy rows: " + lossy);
    }

    @Test
    void bodyPaddingForcesCompressibleBodies() {
        LogGenerator gen = new LogGenerator(SPEC.withBodyBytes(1_000));
        for (LogRecord r : gen.file("acme", 0, 0)) {
            assertTrue(r.lossyFlag());
            byte[] rendered = Template.render(r.separators(), r.params());
            assertTrue(r.body().length >= 1_000 && r.body().length < 1_020, "length " + r.body().length);
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertTrue(body.startsWith(new String(rendered, StandardCharsets.UTF_8)));
        }
    }

    @Test
    void fewerServicesTakeTheFirstN() {
        LogGenerator gen = new LogGenerator(SPEC.withServices(3));
        assertEquals(List.of("cart", "recommendation", "currency"),
                gen.services().stream().map(DemoService::name).toList());
        Set<String> seen = new HashSet<>();
        gen.file("acme", 0, 0).forEach(r -> seen.add(r.serviceName()));
        assertEquals(Set.of("cart", "recommendation", "currency"), seen);
    }

    @Test
    void templatesRender() {
        Template t = Template.parse(7, "Tracking ID Created: {UUID} in {NUM:ms}ms", 0);
        assertEquals(List.of(new Template.Slot(1, "uuid"), new Template.Slot(2, "ms")), t.slots());
        assertEquals(List.of("Tracking ID Created: ", " in ", "ms"),
                t.literals().stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList());
        assertArrayEquals("Tracking ID Created: x in 5ms".getBytes(StandardCharsets.UTF_8), Template.render(
                t.literals(), List.of(new dev.ourios.core.Param(1, "x".getBytes(StandardCharsets.UTF_8)),
                        new dev.ourios.core.Param(2, "5".getBytes(StandardCharsets.UTF_8)))));
        assertThrows(IllegalArgumentException.class, () -> Template.render(t.literals(), List.of()));
    }

    @Test
    void specValidation() {
        assertThrows(IllegalArgumentException.class,
                () -> GeneratorSpec.of(List.of("a"), HOUR.plusSeconds(1), 1, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> GeneratorSpec.of(List.of(), HOUR, 1, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> GeneratorSpec.of(List.of("a"), HOUR, 0, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> SPEC.withServices(16));
        assertThrows(IllegalArgumentException.class, () -> SPEC.withBodyBytes(-1));
        LogGenerator gen = new LogGenerator(SPEC);
        assertThrows(IllegalArgumentException.class, () -> gen.file("nobody", 0, 0));
        assertThrows(IllegalArgumentException.class, () -> gen.file("acme", 3, 0));
        assertThrows(IllegalArgumentException.class, () -> gen.file("acme", 0, 4));
        assertEquals(3L * 4 * 2_000, SPEC.rowsPerTenant());
    }

    private static void assertShare(Map<String, Integer> counts, String service, double n, double lo, double hi) {
        double share = counts.getOrDefault(service, 0) / n;
        assertTrue(share >= lo && share <= hi, service + " share " + share + " not in [" + lo + ", " + hi + "]");
    }
}
