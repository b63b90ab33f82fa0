package dev.ourios.table;

import dev.ourios.store.ObjectInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Decides, without I/O, what GC may delete from one partition snapshot (STORAGE.md §5). Only five categories are
 * ever candidates: retired files, orphans (unnamed compacted files; every unnamed {@code *.parquet} while the
 * reference implementation's {@code manifest.json} rules), temp files and superseded manifests (with
 * {@code manifest.json} once a manifest of ours rules: it sorts below every generation, so its successor is the
 * lowest manifest of ours present). Live files,
 * ingest files that are not retired, the current manifest and unrecognised objects are never candidates, and
 * nothing is a candidate unless it is older than the grace.
 */
public final class GcPlanner {
    public enum Reason { RETIRED, ORPHAN, TEMP, SUPERSEDED_MANIFEST, COVERED }

    public record Candidate(ObjectInfo object, Reason reason) {
    }

    private GcPlanner() {
    }

    public static List<Candidate> plan(PartitionSnapshot s, Instant now, Duration grace) {
        Instant cutoff = now.minus(grace);
        List<Candidate> out = new ArrayList<>();
        Map<String, Instant> retiredAt = s.manifest().map(m -> m.retired().stream()
                .collect(Collectors.toMap(Retired::file, Retired::at))).orElse(Map.of());
        for (ObjectInfo o : s.retiredPresent()) {
            Instant at = retiredAt.get(o.name());
            if (at == null) {
                throw new IllegalStateException("BUG: " + o.key() + " classified retired but not in the manifest");
            }
            // The object's own age is checked too: a file re-written under a retired name must not go early.
            if (at.isBefore(cutoff) && o.lastModified().isBefore(cutoff)) {
                out.add(new Candidate(o, Reason.RETIRED));
            }
        }
        // A validly covered hour's accounted names (STORAGE.md §4.15): out of the live set since the day commit, so
        // both the day manifest's time and the object's own must be older than the grace.
        s.cover().ifPresent(cover -> {
            if (cover.accountedSince().isBefore(cutoff)) {
                s.covered().stream().filter(o -> o.lastModified().isBefore(cutoff))
                        .forEach(o -> out.add(new Candidate(o, Reason.COVERED)));
            }
        });
        for (ObjectInfo o : s.orphans()) {
            if (o.lastModified().isBefore(cutoff)) {
                out.add(new Candidate(o, Reason.ORPHAN));
            }
        }
        for (ObjectInfo o : s.temps()) {
            if (o.lastModified().isBefore(cutoff)) {
                out.add(new Candidate(o, Reason.TEMP));
            }
        }
        out.addAll(supersededManifests(s, cutoff));
        out.sort(Comparator.comparing(c -> c.object().key()));
        return out;
    }

    /**
     * A manifest is superseded when its successor (the next higher manifest present) was created; it may go once
     * that happened more than the grace ago. For the current manifest as successor its {@code commit.at} is also
     * known, and the later of the two times counts.
     */
    private static List<Candidate> supersededManifests(PartitionSnapshot s, Instant cutoff) {
        List<ObjectInfo> manifests = new ArrayList<>(s.supersededManifests());
        s.currentManifest().ifPresent(manifests::add);
        manifests.sort(Comparator.comparingLong(o -> ManifestKeys.generationOfName(o.name())));
        // A manifest written by another tool may have no commit record, or one without "at": then the successor's
        // own creation time is all we know, which is still when it superseded its predecessor.
        Optional<Instant> currentCommitAt = s.manifest().flatMap(Manifest::commitRecord).flatMap(RecordedCommit::at);
        List<Candidate> out = new ArrayList<>();
        for (int i = 0; i + 1 < manifests.size(); i++) {
            ObjectInfo successor = manifests.get(i + 1);
            Instant supersededAt = successor.lastModified();
            if (i + 2 == manifests.size() && currentCommitAt.isPresent() && currentCommitAt.get().isAfter(supersededAt)) {
                supersededAt = currentCommitAt.get();
            }
            // Its own age counts too, as for every candidate: nothing younger than the grace is ever deleted.
            if (supersededAt.isBefore(cutoff) && manifests.get(i).lastModified().isBefore(cutoff)) {
                out.add(new Candidate(manifests.get(i), Reason.SUPERSEDED_MANIFEST));
            }
        }
        return out;
    }
}
