package dev.ourios.compaction.verify;

import dev.ourios.store.ObjectInfo;
import dev.ourios.table.Manifest;
import dev.ourios.table.RecordedCommit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@code ourios verify} can check one live file against: the output a manifest's commit record names, with the
 * checksum recorded for it and, when recorded, its row count and size. A record another tool or a person wrote may
 * lack any field; without an output and a checksum there is nothing to check against, and a missing row count or size
 * only leaves that comparison out.
 *
 * @param generation the manifest's generation, for messages
 * @param outputs    the files the commit wrote: one, or a band of several checked together (docs/spec/storage.md,
 *                   "The size band")
 * @param checksum   the order-independent checksum recorded for the outputs together
 * @param rows       their row count, when recorded
 * @param bytes      their size together, when recorded
 */
record CommitCheck(long generation, List<String> outputs, String checksum, OptionalLong rows, OptionalLong bytes) {

    /** The check a manifest's commit record allows, or empty when it names no output or records no checksum. */
    static Optional<CommitCheck> of(Manifest m) {
        Optional<RecordedCommit> c = m.commitRecord();
        if (c.isEmpty() || c.get().outputs().isEmpty() || c.get().checksum().isEmpty()) {
            return Optional.empty();
        }
        RecordedCommit r = c.get();
        return Optional.of(new CommitCheck(m.generation(), r.outputs().get(), r.checksum().get(), r.rows(),
                r.bytesOut()));
    }

    boolean covers(ObjectInfo f) {
        return outputs.contains(f.name());
    }

    /**
     * The differences between the outputs as read and the record, one message each; empty when they agree.
     *
     * @param described how the store names the file (or the band) in messages
     * @param size      the bytes of every output together
     * @param read      the checksum of the rows read from every output together
     */
    List<String> compare(long size, String described, RowChecksum read) {
        List<String> problems = new ArrayList<>();
        if (bytes.isPresent() && size != bytes.getAsLong()) {
            problems.add(described + ": " + size + " bytes, the commit of generation " + generation
                    + " recorded " + bytes.getAsLong());
        }
        // The checksum's value starts with the row count, so a checksum that differs covers a row count that does;
        // a recorded count is compared on its own only so that a hand-edited count alone is noticed too.
        if (!read.value().equals(checksum)) {
            problems.add(described + ": checksum " + read.value() + " differs from the one recorded at commit ("
                    + checksum + ")");
        } else if (rows.isPresent() && read.rows() != rows.getAsLong()) {
            problems.add(described + ": read " + read.rows() + " rows, the commit of generation " + generation
                    + " recorded " + rows.getAsLong());
        }
        return problems;
    }
}
