package dev.ourios.bench.soak;

import dev.ourios.compaction.plan.PlanDecision;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the store the way an operator would: the live sets through the table reader, and the backlog through
 * the compactor's own planner (a dry run: the same policy and plan clock as the daemon), so "backlog" means
 * exactly the partitions the next sweep would compact. Day partitions count with their files: a validly covered
 * hour's live files are its late files, its rows being in its day's files.
 */
public final class StoreSurvey {
    private final TableLayout layout;
    private final TableReader tables;
    private final SweepRunner planner;
    private final Clock planClock;
    private final Duration grace;

    public StoreSurvey(TableLayout layout, TableReader tables, SweepRunner planner, Clock planClock, Duration grace) {
        this.layout = layout;
        this.tables = tables;
        this.planner = planner;
        this.planClock = planClock;
        this.grace = grace;
    }

    public Survey take() throws IOException {
        Instant now = planClock.instant();
        List<String> errors = new ArrayList<>();
        long backlog = planner.plan(PartitionFilter.all(), errors).stream().filter(PlanDecision::isCandidate).count();
        if (!errors.isEmpty()) {
            throw new IOException("planning failed: " + errors.get(0));
        }
        long partitions = 0;
        long sealed = 0;
        long liveFiles = 0;
        long liveBytes = 0;
        long storedFiles = 0;
        long storedBytes = 0;
        long days = 0;
        long coveredHours = 0;
        long dayFiles = 0;
        for (LiveDays.Day d : new LiveDays(layout, tables).read()) {
            List<PartitionSnapshot> all = new ArrayList<>(d.hours().values());
            if (d.files().currentManifest().isPresent()) {
                days++;
                dayFiles += d.files().live().size();
                all.add(d.files());
            }
            for (PartitionKey p : d.hours().keySet()) {
                partitions++;
                if (!now.isBefore(p.hourStart().plus(Duration.ofHours(1)).plus(grace))) {
                    sealed++;
                }
                if (d.hours().get(p).isCovered()) {
                    coveredHours++;
                }
            }
            for (PartitionSnapshot s : all) {
                liveFiles += s.live().size();
                liveBytes += s.liveBytes();
                storedFiles += s.listing().size();
                storedBytes += s.listing().stream().mapToLong(ObjectInfo::size).sum();
            }
        }
        return new Survey(partitions, sealed, backlog, liveFiles, liveBytes, storedFiles, storedBytes, days,
                dayFiles, coveredHours);
    }
}
