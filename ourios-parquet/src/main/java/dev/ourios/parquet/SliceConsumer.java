package dev.ourios.parquet;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Passes on only the top-level fields {@code [from, to)} of each record, renumbered from 0, to the consumer of a
 * schema holding just those fields (a column slice, see {@link RowGroupWriter}); every call inside another field
 * is dropped. The write support shreds a whole row into each slice's consumer, and each slice's columns are
 * encoded, compressed and buffered by its own parquet-java column store.
 */
final class SliceConsumer extends RecordConsumer {
    private final RecordConsumer slice;
    private final int from;
    private final int to;
    /** Group nesting inside the current top-level field. */
    private int depth;
    private boolean passing;

    SliceConsumer(RecordConsumer slice, int from, int to) {
        this.slice = slice;
        this.from = from;
        this.to = to;
    }

    /** Whether top-level field {@code index} belongs to this slice. */
    boolean owns(int index) {
        return index >= from && index < to;
    }

    @Override
    public void startMessage() {
        slice.startMessage();
    }

    @Override
    public void endMessage() {
        slice.endMessage();
    }

    @Override
    public void startField(String field, int index) {
        if (depth == 0) {
            passing = owns(index);
            if (passing) {
                slice.startField(field, index - from);
            }
        } else if (passing) {
            slice.startField(field, index);
        }
    }

    @Override
    public void endField(String field, int index) {
        if (depth == 0) {
            if (passing) {
                slice.endField(field, index - from);
            }
            passing = false;
        } else if (passing) {
            slice.endField(field, index);
        }
    }

    @Override
    public void startGroup() {
        depth++;
        if (passing) {
            slice.startGroup();
        }
    }

    @Override
    public void endGroup() {
        depth--;
        if (passing) {
            slice.endGroup();
        }
    }

    @Override
    public void addInteger(int value) {
        if (passing) {
            slice.addInteger(value);
        }
    }

    @Override
    public void addLong(long value) {
        if (passing) {
            slice.addLong(value);
        }
    }

    @Override
    public void addBoolean(boolean value) {
        if (passing) {
            slice.addBoolean(value);
        }
    }

    @Override
    public void addBinary(Binary value) {
        if (passing) {
            slice.addBinary(value);
        }
    }

    @Override
    public void addFloat(float value) {
        if (passing) {
            slice.addFloat(value);
        }
    }

    @Override
    public void addDouble(double value) {
        if (passing) {
            slice.addDouble(value);
        }
    }

    @Override
    public void flush() {
        slice.flush();
    }
}
