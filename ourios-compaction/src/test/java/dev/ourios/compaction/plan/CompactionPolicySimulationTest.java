package dev.ourios.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.IoRates;
import dev.ourios.store.ObjectInfo;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CompactionPolicy#decide} against a reference model written here from the rules as operations.md and the
 * options state them, over random partitions, live sets, options and clocks:
 *
 * <ul>
 * <li>sealed: {@code now >= hour start + 1 h + grace};
 * <li>tiered: with a compacted file among at least two live files, the largest compacted file (ties: the greatest
 * name) is the main file and the rest its tail; a tail of at most {@code max-tail-ratio} times the main file's bytes
 * is left alone when it is one file and merged on its own when it is more; once the hour's UTC day is over
 * ({@code now >= day start + 24 h + grace}), a tail holding a file below {@code small-file-bytes} beside a main file
 * of at least that size is folded into it (every live file an input);
 * <li>otherwise candidate: sealed, at least two live files, and more than {@code min-files} of them or any smaller
 * than {@code small-file-bytes};
 * <li>the plan: the partition, the generation the caller read, the inputs (every live file, or the tail) in
 * sorted-name order (whatever the listing order), the sort budget and fan-in of the options, and the compacted
 * row-group threshold of the inputs' bytes: an explicit setting, else {@code OURIOS_COMPACTED_RG_BYTES} as the
 * application parses it into the setting (a byte count of at least 1024; any other non-blank value is refused by
 * {@link RowGroupSizing#parseEnv}, before a policy is built), else {@code clamp(input bytes / 8, 1 MiB, 32 MiB)}.
 * </ul>
 *
 * <p>Seeded: {@code -Dourios.seed=N} replays a failing run (the failure message names the seed and the case);
 * {@code -Dourios.policy.cases=N} changes the number of cases.
 */
class CompactionPolicySimulationTest {
    private static final long MIB = 1L << 20;
    private static final Path SCRATCH = Path.of("unused-scratch"); // the policy never touches it
    private static final String[] TENANTS = {"acme", "a", "tenant/with/slashes", "%2F", "\u00e9t\u00e9", "z"};

    /** Which rule decided a case, for the coverage check at the end. */
    private enum Outcome {
        NOT_SEALED, FEWER_THAN_TWO, TAIL_LEFT, TAIL_MERGED, TAIL_FOLDED, NEITHER_MANY_NOR_SMALL, MANY_FILES, SMALL_FILES
    }

    /** One drawn case: every input {@code decide} and the policy's constructor take. */
    private record Case(PartitionKey partition, long generation, List<ObjectInfo> live, Instant now,
            CompactionOptions options, String rowGroupEnv) {
    }

    /** What the model says {@code decide} must answer. */
    private record Expected(Outcome outcome, Instant sealedAt, List<ObjectInfo> inputs, long bytesIn,
            long rowGroupBytes) {
    }

    @Test
    @Timeout(30)
    void policy_decisions_match_the_reference_model_over_random_partitions_and_clocks() {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        int cases = Integer.getInteger("ourios.policy.cases", 4000);
        SplittableRandom master = new SplittableRandom(seed);
        Map<Outcome, Integer> seen = new EnumMap<>(Outcome.class);
        int onTheSealingInstant = 0;
        int withCompactedFile = 0;
        int smallBoundary = 0;
        int envRefused = 0;
        for (int i = 0; i < cases; i++) {
            long caseSeed = master.nextLong();
            Case c = draw(new SplittableRandom(caseSeed));
            Expected e;
            try {
                if (c.options().rowGroupBytes().isEmpty() && refusedEnv(c.rowGroupEnv())) {
                    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                            () -> RowGroupSizing.parseEnv(c.rowGroupEnv()));
                    assertTrue(refused.getMessage().startsWith(RowGroupSizing.ENV + ": "), refused.getMessage());
                    envRefused++;
                    continue;
                }
                e = model(c);
                check(c, e);
            } catch (AssertionError | RuntimeException ex) {
                throw new AssertionError("seed " + seed + " (rerun with -Dourios.seed=" + seed + "), case " + i
                        + ": " + ex.getMessage() + "\n" + c, ex);
            }
            seen.merge(e.outcome(), 1, Integer::sum);
            onTheSealingInstant += c.now().equals(e.sealedAt()) ? 1 : 0;
            withCompactedFile += c.live().stream().anyMatch(o -> FileNames.isCompactedFile(o.name())) ? 1 : 0;
            smallBoundary += c.live().stream().anyMatch(o -> o.size() == c.options().smallFileBytes()) ? 1 : 0;
        }
        System.out.println("CompactionPolicySimulationTest seed " + seed + ", " + cases + " cases: " + seen
                + ", " + onTheSealingInstant + " on the sealing instant, " + withCompactedFile
                + " with a compacted file, " + smallBoundary + " with a file of exactly small-file-bytes, "
                + envRefused + " with " + RowGroupSizing.ENV + " refused");
        // The generator must keep reaching every rule and the boundaries, or the comparison proves little.
        if (cases >= 1000) {
            String why = "seed " + seed + ": the generator stopped reaching a rule: " + seen;
            for (Outcome o : Outcome.values()) {
                assertTrue(seen.getOrDefault(o, 0) >= cases / 100, why + " (" + o + ")");
            }
            assertTrue(onTheSealingInstant >= cases / 100, why + ", on the sealing instant " + onTheSealingInstant);
            assertTrue(withCompactedFile >= cases / 10, why + ", with a compacted file " + withCompactedFile);
            assertTrue(smallBoundary >= cases / 100, why + ", at small-file-bytes exactly " + smallBoundary);
            assertTrue(envRefused >= cases / 20, why + ", with the variable refused " + envRefused);
        }
    }

    // --- the reference model ------------------------------------------------------------------------------------

    private static Expected model(Case c) {
        CompactionOptions o = c.options();
        Instant hourEnd = Instant.ofEpochSecond(hourStartSecond(c.partition()) + 3600);
        Instant sealedAt = hourEnd.plus(o.grace());
        boolean sealed = c.now().compareTo(sealedAt) >= 0;
        ObjectInfo main = null;
        for (ObjectInfo f : c.live()) {
            if (FileNames.isCompactedFile(lastSegment(f.key())) && (main == null || f.size() > main.size()
                    || f.size() == main.size() && lastSegment(f.key()).compareTo(lastSegment(main.key())) > 0)) {
                main = f;
            }
        }
        List<ObjectInfo> tail = new ArrayList<>(c.live());
        tail.remove(main);
        long tailBytes = 0;
        for (ObjectInfo f : tail) {
            tailBytes += f.size();
        }
        boolean tiered = main != null && tailBytes <= o.maxTailRatio() * main.size();
        Instant daySealedAt = Instant.ofEpochSecond(hourStartSecond(c.partition()) - c.partition().hour() * 3600L
                + 86_400).plus(o.grace());
        boolean folded = tiered && main.size() >= o.smallFileBytes() && c.now().compareTo(daySealedAt) >= 0
                && tail.stream().anyMatch(f -> f.size() < o.smallFileBytes());
        List<ObjectInfo> sorted = new ArrayList<>(tiered && !folded ? tail : c.live());
        sorted.sort((a, b) -> lastSegment(a.key()).compareTo(lastSegment(b.key())));
        long bytes = 0;
        boolean small = false;
        for (ObjectInfo f : c.live()) {
            small |= f.size() < o.smallFileBytes();
        }
        for (ObjectInfo f : sorted) {
            bytes += f.size();
        }
        Outcome outcome;
        if (!sealed) {
            outcome = Outcome.NOT_SEALED;
        } else if (c.live().size() < 2) {
            outcome = Outcome.FEWER_THAN_TWO;
        } else if (folded) {
            outcome = Outcome.TAIL_FOLDED;
        } else if (tiered) {
            outcome = tail.size() < 2 ? Outcome.TAIL_LEFT : Outcome.TAIL_MERGED;
        } else if (c.live().size() > o.minFiles()) {
            outcome = Outcome.MANY_FILES;
        } else if (small) {
            outcome = Outcome.SMALL_FILES;
        } else {
            outcome = Outcome.NEITHER_MANY_NOR_SMALL;
        }
        long rowGroup;
        if (o.rowGroupBytes().isPresent()) {
            rowGroup = o.rowGroupBytes().getAsLong();
        } else if (c.rowGroupEnv() != null && !c.rowGroupEnv().isBlank()) {
            rowGroup = Long.parseLong(c.rowGroupEnv().strip());
        } else {
            rowGroup = Math.min(32 * MIB, Math.max(MIB, bytes / 8));
        }
        return new Expected(outcome, sealedAt, sorted, bytes, rowGroup);
    }

    /** The hour's first second, from the calendar fields (not through {@link PartitionKey#hourStart}). */
    private static long hourStartSecond(PartitionKey p) {
        return java.time.LocalDate.of(p.year(), p.month(), p.day()).toEpochDay() * 86_400L + p.hour() * 3600L;
    }

    private static String lastSegment(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    /**
     * Whether the policy must refuse the environment variable's value: anything but unset, blank, or plain digits
     * (surrounding blanks allowed) for a value of at least 1024 that fits a long.
     */
    private static boolean refusedEnv(String env) {
        if (env == null || env.isBlank()) {
            return false;
        }
        if (!env.strip().matches("[0-9]+")) {
            return true;
        }
        BigInteger v = new BigInteger(env.strip());
        return v.bitLength() >= 64 || v.compareTo(BigInteger.valueOf(1024)) < 0;
    }

    /**
     * The options as the application hands them to the policy: without a row-group setting, the variable's value
     * parsed into one (what the CLI does before it builds a sweep).
     */
    private static CompactionOptions resolvedOptions(Case c) {
        return c.options().rowGroupBytes().isPresent() ? c.options()
                : c.options().withRowGroupBytes(RowGroupSizing.parseEnv(c.rowGroupEnv()));
    }

    private static void check(Case c, Expected e) {
        CompactionPolicy policy = new CompactionPolicy(resolvedOptions(c));
        assertEquals(e.outcome() != Outcome.NOT_SEALED, policy.isSealed(c.partition(), c.now()), "isSealed");
        // The caller's list is the snapshot's live set in listing order; the policy must not depend on that order
        // (nor change the list it was given).
        List<ObjectInfo> given = List.copyOf(c.live());
        PlanDecision d = policy.decide(c.partition(), c.generation(), c.live(), c.now());
        assertEquals(given, c.live(), "decide changed its argument");
        assertEquals(c.partition(), d.partition(), "partition");
        assertFalse(d.reason().isBlank(), "every decision carries a reason");
        boolean candidate = e.outcome() == Outcome.MANY_FILES || e.outcome() == Outcome.SMALL_FILES
                || e.outcome() == Outcome.TAIL_MERGED || e.outcome() == Outcome.TAIL_FOLDED;
        assertEquals(candidate, d.isCandidate(), "candidate (model: " + e.outcome() + ", reason: " + d.reason() + ")");
        switch (e.outcome()) {
            case NOT_SEALED -> assertTrue(d.reason().contains(e.sealedAt().toString()),
                    "a not-sealed reason names when the hour seals (" + e.sealedAt() + "): " + d.reason());
            case FEWER_THAN_TWO -> assertTrue(d.reason().startsWith(c.live().size() + " live file"),
                    "reason names the live-file count: " + d.reason());
            case NEITHER_MANY_NOR_SMALL -> assertTrue(d.reason().contains(String.valueOf(
                    c.options().smallFileBytes())), "reason names the small-file threshold: " + d.reason());
            case MANY_FILES -> assertTrue(d.reason().contains("min-files " + c.options().minFiles()),
                    "reason names min-files: " + d.reason());
            case SMALL_FILES -> assertTrue(d.reason().contains("small"), "reason names small files: " + d.reason());
            case TAIL_FOLDED -> assertTrue(d.reason().contains("max-tail-ratio " + c.options().maxTailRatio())
                    && d.reason().contains("folded into the main file"), "reason names the fold: " + d.reason());
            case TAIL_LEFT, TAIL_MERGED -> assertTrue(d.reason().contains("max-tail-ratio "
                    + c.options().maxTailRatio()), "reason names the tail ratio: " + d.reason());
            default -> fail("unknown outcome " + e.outcome());
        }
        if (!candidate) {
            assertTrue(d.plan().isEmpty());
            return;
        }
        CompactionPlan plan = d.plan().orElseThrow();
        assertEquals(c.partition(), plan.partition(), "plan partition");
        assertEquals(c.generation(), plan.baseGeneration(), "the plan commits against the generation it read");
        assertEquals(e.inputs(), plan.inputs(), "every live file or the tail, in sorted-name order, unaltered");
        assertEquals(e.bytesIn(), plan.bytesIn(), "bytes in");
        assertEquals(e.rowGroupBytes(), plan.rowGroupBytes(), "row-group threshold (env '" + c.rowGroupEnv() + "')");
        assertEquals(c.options().sortBudgetBytes(), plan.sortBudgetBytes(), "sort budget");
        assertEquals(c.options().fanIn(), plan.fanIn(), "fan-in");

        // Listing order and modification times are not inputs of the decision.
        List<ObjectInfo> reordered = new ArrayList<>(c.live());
        Collections.reverse(reordered);
        reordered.replaceAll(f -> new ObjectInfo(f.key(), f.size(), f.lastModified().plusSeconds(1)));
        PlanDecision again = policy.decide(c.partition(), c.generation(), reordered, c.now());
        assertEquals(plan.inputNames(), again.plan().orElseThrow().inputNames(), "inputs whatever the listing order");
        assertEquals(d.reason(), again.reason(), "the reason whatever the listing order");
    }

    // --- the generator ------------------------------------------------------------------------------------------

    private static Case draw(SplittableRandom r) {
        // Hours from 1970 to 2199 (leap days and year ends included by chance), a fifth of them near "now".
        long hour = r.nextInt(5) == 0 ? 495_000 + r.nextLong(2_000) : r.nextLong(2_016_000);
        PartitionKey p = PartitionKey.ofHour(TENANTS[r.nextInt(TENANTS.length)], Instant.ofEpochSecond(hour * 3600));
        CompactionOptions options = drawOptions(r);
        Instant sealedAt = p.hourStart().plusSeconds(3600).plus(options.grace());
        Instant drawn = switch (r.nextInt(8)) {
            case 0 -> sealedAt; // the sealing instant itself
            case 1 -> sealedAt.minusNanos(1);
            case 2 -> sealedAt.plusNanos(1);
            case 3 -> sealedAt.minusSeconds(1 + r.nextLong(7200)); // still open, or within grace
            case 4 -> p.hourStart().plusNanos(r.nextLong(3_600_000_000_000L)); // inside the hour
            case 5 -> p.hourStart().minusSeconds(r.nextLong(86_400 * 30L)); // a clock behind the data
            default -> sealedAt.plusSeconds(r.nextLong(86_400 * 400L)).plusNanos(r.nextLong(1_000_000_000L));
        };
        Instant now = drawn;
        String env = switch (r.nextInt(12)) {
            case 0 -> "";
            case 1 -> "   ";
            case 2 -> "0";
            case 3 -> "-" + (1 + r.nextInt(1 << 20));
            case 4 -> "12x";
            case 5 -> "99999999999999999999"; // does not fit a long
            case 6 -> " " + (1 + r.nextLong(64 * MIB)) + " ";
            case 7 -> String.valueOf(1 + r.nextLong(64 * MIB));
            default -> null; // unset, the common case
        };
        long generation;
        List<ObjectInfo> live = new ArrayList<>();
        Uuid7 uuids = new Uuid7(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), r.split());
        Set<String> names = new HashSet<>();
        long landedMillis = p.hourStart().toEpochMilli();
        String prefix = p.dataPrefix();
        if (r.nextInt(2) == 0) {
            // Compacted before: one compacted file, and late ingest files landed beside it since.
            generation = r.nextInt(10) == 0 ? Long.MAX_VALUE - r.nextInt(3) : 1 + r.nextInt(1000);
            String name = uuids.at(landedMillis + r.nextLong(86_400_000L)) + FileNames.COMPACTED;
            live.add(file(prefix, p, name, r, options, names));
            if (r.nextInt(3) == 0) {
                // A compacted tail an earlier sweep made, or a second main file of the same size.
                String tailName = uuids.at(landedMillis + r.nextLong(86_400_000L)) + FileNames.COMPACTED;
                long size = r.nextInt(8) == 0 ? live.get(0).size() : r.nextLong(1 + live.get(0).size() / 4);
                live.add(sized(prefix, p, tailName, size, r, names));
            }
        } else {
            generation = r.nextInt(20) == 0 ? 1 + r.nextInt(50) : 0; // a generation with only ingest files left
        }
        int ingest = switch (r.nextInt(6)) {
            case 0 -> r.nextInt(2); // none or one
            case 1 -> options.minFiles() - live.size(); // exactly min-files live
            case 2 -> options.minFiles() + 1 - live.size(); // one more than min-files
            default -> r.nextInt(12);
        };
        // Late files sized against the main file, so the tail lands below, on and above max-tail-ratio.
        long tailShare = live.isEmpty() || r.nextBoolean() ? -1
                : (long) (live.get(0).size() * options.maxTailRatio()) / Math.max(1, ingest);
        if (tailShare > 0 && r.nextBoolean()) {
            tailShare = Math.min(tailShare, options.smallFileBytes() - 1); // late files below small-file-bytes
        }
        for (int f = 0; f < Math.max(0, ingest); f++) {
            String name = uuids.at(landedMillis + r.nextLong(7_200_000L)) + FileNames.PARQUET;
            live.add(tailShare < 0 ? file(prefix, p, name, r, options, names)
                    : sized(prefix, p, name, tailShare + r.nextInt(3) - 1, r, names));
        }
        if (r.nextInt(12) == 0 && !live.isEmpty() && FileNames.isCompactedFile(lastSegment(live.get(0).key()))
                && live.get(0).size() >= options.smallFileBytes()) {
            // A large hour's day that is over, with a few small late files: the fold's case, kept frequent.
            now = p.hourStart().plusSeconds(86_400L * (1 + r.nextInt(30))).plus(options.grace());
            live.subList(1, live.size()).clear();
            long each = Math.min(options.smallFileBytes(), (long) (live.get(0).size() * options.maxTailRatio()) / 3);
            for (int f = 0; f < 1 + r.nextInt(3) && each > 0; f++) {
                String name = uuids.at(landedMillis + r.nextLong(7_200_000L)) + FileNames.PARQUET;
                live.add(sized(prefix, p, name, r.nextLong(each), r, names));
            }
        }
        Collections.shuffle(live, new Random(r.nextLong())); // the listing order the caller happened to have
        return new Case(p, generation, List.copyOf(live), now, options, env);
    }

    private static ObjectInfo sized(String prefix, PartitionKey p, String name, long size, SplittableRandom r,
            Set<String> names) {
        if (!names.add(name)) {
            name = "b" + name; // a UUIDv7 collision within one drawn partition: keep names unique
            names.add(name);
        }
        Instant modified = p.hourStart().plusMillis(r.nextLong(-86_400_000L, 86_400_000L * 30));
        return new ObjectInfo(prefix + name, Math.max(0, size), modified);
    }

    private static ObjectInfo file(String prefix, PartitionKey p, String name, SplittableRandom r, CompactionOptions o,
            Set<String> names) {
        long small = o.smallFileBytes();
        long size = switch (r.nextInt(8)) {
            case 0 -> small; // exactly the threshold: not small
            case 1 -> Math.max(0, small - 1); // just under it
            case 2 -> small + 1 + r.nextLong(1L << 30);
            case 3 -> r.nextLong(Math.max(1, small));
            case 4 -> r.nextInt(3); // empty or nearly
            default -> small + r.nextLong(1L << 34); // big compacted-size files
        };
        return sized(prefix, p, name, size, r, names);
    }

    private static CompactionOptions drawOptions(SplittableRandom r) {
        Duration grace = switch (r.nextInt(6)) {
            case 0 -> Duration.ZERO;
            case 1 -> Duration.ofNanos(1 + r.nextInt(1_000_000));
            case 2 -> CompactionOptions.DEFAULT_GRACE;
            case 3 -> Duration.ofHours(1 + r.nextInt(48));
            default -> Duration.ofSeconds(r.nextLong(7200), r.nextInt(1_000_000_000));
        };
        int minFiles = r.nextInt(10) == 0 ? 1 + r.nextInt(100) : 1 + r.nextInt(8);
        long smallFileBytes = switch (r.nextInt(5)) {
            case 0 -> 0; // nothing is small
            case 1 -> CompactionOptions.DEFAULT_SMALL_FILE_BYTES;
            case 2 -> 1 + r.nextInt(1024);
            default -> r.nextLong(1L << 32);
        };
        long budget = MIB + r.nextLong(1L << 30);
        int fanIn = 2 + r.nextInt(200);
        OptionalLong rowGroup = r.nextInt(4) == 0 ? OptionalLong.of(1024 + r.nextLong(1L << 30))
                : OptionalLong.empty();
        double maxTailRatio = switch (r.nextInt(5)) {
            case 0 -> 0; // every late file merges into the main file
            case 1 -> 1;
            case 2 -> CompactionOptions.DEFAULT_MAX_TAIL_RATIO;
            default -> r.nextDouble();
        };
        return new CompactionOptions(grace, minFiles, smallFileBytes, budget, fanIn, rowGroup, 1 + r.nextInt(8),
                CompactionOptions.DEFAULT_GC_GRACE, SCRATCH, IoRates.UNLIMITED).withMaxTailRatio(maxTailRatio);
    }
}
