package dev.ourios.query;

import dev.ourios.table.Cover;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.List;

/**
 * A day partition's files hold rows of an hour they no longer validly cover (docs/spec/storage.md, "Rollup: small
 * hours into day files": the hour committed after it was covered). A query skips such rows; a file list handed to
 * another engine cannot say so, and that engine would read them beside the hour's own files, so the list is refused,
 * naming the day, until the next rollup of the day rewrites it without them.
 */
public final class DeadRowsException extends IOException {
    private static final long serialVersionUID = 1L;

    DeadRowsException(DayPartition day, Cover voided) {
        super("the day partition " + day.prefix() + " holds rows of hour " + voided.hourLabel()
                + ", which it no longer covers (the hour committed since); its files cannot be listed until the next "
                + "rollup of the day rewrites them (ourios compact --rollup)");
    }

    /** Refuses the day {@code day} when one of its covers with rows is void. */
    static void check(TableReader tables, DayPartition day, DayCovers covers) throws IOException {
        for (Cover c : covers.manifest().map(m -> m.covers()).orElse(List.of())) {
            if (c.rows() == 0) {
                continue;
            }
            if (!tables.hourSnapshot(day.hour(c.hour()), covers).isCovered()) {
                throw new DeadRowsException(day, c);
            }
        }
    }
}
