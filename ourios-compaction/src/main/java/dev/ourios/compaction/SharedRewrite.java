package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.share.ShareProcesses;
import dev.ourios.compaction.share.ShareRecord;
import dev.ourios.compaction.share.Shares;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.Uuid7;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An hour compaction cut into shares, shared between sharded compactor processes (docs/spec/storage.md, "Sharing one
 * rewrite between compactor processes"): this process writes its group of the shares and publishes the group's
 * share record, then assembles the whole rewrite from every group's usable record, or reports it pending
 * ({@link SharesPending}) while a group's record is missing. Only the commit that follows makes anything visible.
 */
final class SharedRewrite {
    private static final Logger LOG = LoggerFactory.getLogger(SharedRewrite.class);

    /** Writes one group of the plan's shares; the workers' results in share order, undone together on failure. */
    @FunctionalInterface
    interface GroupWriter {
        List<ShareWorker.Result> write(Shares.Group group) throws IOException;
    }

    private final ObjectStore store;
    private final ShareProcesses processes;
    /** The age past which a record or output is not assembled: half the GC grace, as the committer's bound. */
    private final Optional<Duration> maxAge;
    private final Clock clock;
    private final Uuid7 uuids;

    SharedRewrite(ObjectStore store, ShareProcesses processes, Duration gcGrace, Clock clock, Uuid7 uuids) {
        this.store = store;
        this.processes = processes;
        this.maxAge = gcGrace.isZero() ? Optional.empty() : Optional.of(gcGrace.dividedBy(2));
        this.clock = clock;
        this.uuids = uuids;
    }

    RewriteResult rewrite(CompactionPlan plan, Shares shares, GroupWriter writer) throws IOException {
        int groups = processes.groups(shares.count());
        String planId = ShareRecord.planId(plan, groups);
        String dir = plan.outputPrefix();
        int mine = processes.groupOf(plan.partition(), groups);
        Listed listed = list(dir, planId, groups);
        Map<Integer, ShareRecord> usable = listed.usable();
        if (mine >= 0 && !usable.containsKey(mine) && (!listed.recorded().contains(mine) || listed.recordedAll())) {
            // A group never recorded is written; one whose record went stale (or unreadable) only once every group
            // has a record, so a process whose peer never wrote does not rewrite its group at every sweep.
            List<ShareWorker.Result> parts = writer.write(shares.groups(groups).get(mine));
            try {
                publish(dir, recordOf(plan, planId, mine, groups, shares, parts));
            } catch (IOException | RuntimeException | Error e) {
                parts.forEach(ShareWorker.Result::abort); // no record names them: nothing of the group is left
                throw e;
            }
            usable = list(dir, planId, groups).usable();
            if (!usable.containsKey(mine)) {
                // Its own files are already past the age the committer accepts: the group took too long.
                throw new IOException(plan.partition() + ": this compactor's shares took longer than half the GC"
                        + " grace (" + maxAge.map(Duration::toString).orElse("none") + ") to write; raise"
                        + " --gc-grace");
            }
        }
        if (usable.size() < groups) {
            throw new SharesPending(plan.partition(), usable.size(), groups);
        }
        return assemble(plan, dir, usable);
    }

    /** The group's record from its workers' results: every worker read the same rows and wrote the rows it kept. */
    private static ShareRecord recordOf(CompactionPlan plan, String planId, int group, int groups, Shares shares,
            List<ShareWorker.Result> parts) throws IOException {
        long read = ShareWorker.rowsRead(plan, parts);
        RowChecksum in = new RowChecksum();
        RowChecksum out = new RowChecksum();
        List<ShareRecord.Output> outputs = new ArrayList<>();
        for (ShareWorker.Result r : parts) {
            in.addAll(r.in());
            out.addAll(r.out());
            r.files().forEach(f -> outputs.add(new ShareRecord.Output(f.name(), f.rows(), f.bytes(), f.rowGroups())));
        }
        if (!in.value().equals(out.value())) {
            throw new ChecksumMismatchException(plan.partition(), in.value(), out.value());
        }
        return new ShareRecord(planId, group, groups, shares.count(), read, in.rows(), in.value(), outputs);
    }

    private void publish(String dir, ShareRecord record) throws IOException {
        String key = dir + record.name(uuids.next().toString());
        if (!store.putIfAbsent(key, record.toJson())) {
            throw new IOException("BUG: a fresh share record name is taken: " + store.describe(key));
        }
        LOG.debug("{}: share record of group {} of {} ({} files, {} of {} rows)", dir, record.group(),
                record.groups(), record.outputs().size(), record.rowsKept(), record.rowsRead());
    }

    /**
     * The share records of one plan in its directory: the groups with a record of any kind, and the usable record of
     * each group that has one.
     */
    private record Listed(Set<Integer> recorded, Map<Integer, ShareRecord> usable, int groups) {
        boolean recordedAll() {
            return recorded.size() == groups;
        }
    }

    /**
     * The records of plan {@code planId} in {@code dir}. A record is usable when it parses, its name and content
     * agree, and it and every file it names are present and younger than half the GC grace; the first by name counts.
     */
    private Listed list(String dir, String planId, int groups) throws IOException {
        List<ObjectInfo> listing = store.listObjects(dir);
        Map<String, ObjectInfo> byName = listing.stream()
                .collect(Collectors.toMap(ObjectInfo::name, o -> o, (a, b) -> a));
        Instant now = clock.instant();
        Set<Integer> recorded = new TreeSet<>();
        Map<Integer, ShareRecord> usable = new TreeMap<>();
        for (ObjectInfo o : listing) {
            if (!planId.equals(ShareRecord.planOfName(o.name()))) {
                continue;
            }
            int group = ShareRecord.groupOfName(o.name());
            if (group < groups) {
                recorded.add(group);
            }
            if (group >= groups || usable.containsKey(group) || !young(o, now)
                    || o.size() > ShareRecord.MAX_BYTES) {
                continue;
            }
            Optional<ShareRecord> r = read(o);
            if (r.isPresent() && r.get().plan().equals(planId) && r.get().group() == group
                    && r.get().groups() == groups && r.get().outputs().stream()
                            .allMatch(f -> byName.containsKey(f.file()) && young(byName.get(f.file()), now))) {
                usable.put(group, r.get());
            }
        }
        return new Listed(recorded, usable, groups);
    }

    private boolean young(ObjectInfo o, Instant now) {
        return maxAge.map(age -> o.lastModified().isAfter(now.minus(age))).orElse(true);
    }

    /** The record, or empty when it is gone (GC) or is not a record of ours. */
    private Optional<ShareRecord> read(ObjectInfo o) throws IOException {
        byte[] bytes;
        try {
            bytes = store.readAllBytes(o.key());
        } catch (NoSuchObjectException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(ShareRecord.parse(bytes));
        } catch (IllegalArgumentException | ArithmeticException e) {
            LOG.warn("{}: not a usable share record: {}", store.describe(o.key()), e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The whole rewrite from every group's record: each read the same rows, the rows kept add up to them, the
     * outputs in group order, the checksum the sum of the groups'.
     */
    private static RewriteResult assemble(CompactionPlan plan, String dir, Map<Integer, ShareRecord> records) {
        long read = records.get(0).rowsRead();
        long kept = 0;
        List<String> checksums = new ArrayList<>();
        List<RewriteResult.Output> outputs = new ArrayList<>();
        for (ShareRecord r : records.values()) {
            if (r.rowsRead() != read || r.shares() != records.get(0).shares()) {
                throw new IllegalStateException(plan.partition() + ": share records disagree on the inputs: "
                        + read + " and " + r.rowsRead() + " rows read");
            }
            kept += r.rowsKept();
            checksums.add(r.checksum());
            r.outputs().forEach(f -> outputs.add(new RewriteResult.Output(dir + f.file(), f.file(), f.rows(),
                    f.bytes(), f.rowGroups())));
        }
        if (kept != read) {
            throw new IllegalStateException(plan.partition() + ": the shares kept " + kept + " of " + read
                    + " rows read");
        }
        if (outputs.isEmpty()) {
            throw new IllegalStateException(plan.partition() + ": a shared rewrite of " + read + " rows names no file");
        }
        String checksum = RowChecksum.sum(checksums);
        long bytes = outputs.stream().mapToLong(RewriteResult.Output::bytes).sum();
        int rowGroups = outputs.stream().mapToInt(RewriteResult.Output::rowGroups).sum();
        RewriteResult.Output first = outputs.get(0);
        LOG.debug("{}: assembled {} groups, {} files, {} rows", plan.partition(), records.size(), outputs.size(),
                read);
        return new RewriteResult(first.key(), first.name(), read, read, plan.bytesIn(), bytes, rowGroups, checksum,
                checksum, 0, 0, 0, 0, outputs, Optional.empty());
    }
}
