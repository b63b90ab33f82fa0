package dev.ourios.parquet.read;

import dev.ourios.core.LogRecord;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * An exact row predicate that needs only a few columns, so a reader can decide a row before decoding the rest of
 * it (late materialization): {@link LogFileReader} decodes {@link #columns()} of the candidate rows first and the
 * other columns only of the rows this keeps. A query over a compacted file keeps a handful of rows out of a row
 * group of ~200,000: decoding every column of every row would be almost all wasted.
 *
 * <p>The record {@link #test} sees is partial: the columns outside {@link #columns()} read as absent (null, 0,
 * empty lists; REQUIRED strings as empty strings). A predicate must not look at them. Nor at the observed time of a
 * row whose time is not 0: a reader may leave it absent, since it decides only the effective time of a row whose
 * time is 0 ({@link LogRecord#effectiveTime()} is right either way). Whatever the reader's path
 * (files it cannot decode by columns get the whole record), every row the filter2 pruning and the
 * column tests leave is tested exactly once, in file order, and only kept rows are returned (rows the column tests
 * keep when they {@link #columnTestsDecide decide} are not tested).
 *
 * <p>Column tests: a reader that decodes columns reads the {@link #columnTests} of each candidate row first, on
 * those values alone, and rejects a row that fails one without decoding it further, provided the row passes every
 * {@link #columnGuards guard} (so {@link #test} would have returned false rather than thrown); a row that fails a
 * guard is decoded and tested whatever its values. A reader that does not decode columns skips both: the rows
 * returned are the same. A prefilter whose tests {@link #columnTestsDecide decide} its verdict lets a reader keep a
 * row that passes every guard and every test (each on a value, not a null) without decoding or testing it: a count
 * then decodes the tested and guarded columns alone.
 */
public interface RowPrefilter {
    /** The top-level column names {@link #test} reads (missing from a file: they read as absent, as usual). */
    Set<String> columns();

    /**
     * Whether row {@code rowIndex} (its position in the file) is returned; may throw to fail the read (a row that
     * breaks an invariant, such as another tenant's row).
     */
    boolean test(LogRecord partial, long rowIndex) throws IOException;

    /**
     * Conditions on single columns of {@link #columns()} that every row {@link #test} accepts satisfies: a row
     * failing one is rejected on that value alone, neither decoded further nor tested. The most selective first
     * (each is read only for the rows the ones before it pass). None by default.
     */
    default List<ColumnTest> columnTests() {
        return List.of();
    }

    /**
     * Whether the column tests are sufficient as well as necessary: a row that passes every guard and every column
     * test, holding a value (not null) in each tested column, is one {@link #test} returns true for. A reader that
     * applies every test and guard may then keep such a row without decoding it or calling {@link #test}; a row with
     * a null in a tested column, or failing a guard, is decoded and tested as usual. False by default.
     */
    default boolean columnTestsDecide() {
        return false;
    }

    /**
     * Conditions on single columns of {@link #columns()} under which {@link #test} does not throw: only a row that
     * passes all of them may be rejected on a column test. A guard the reader cannot read (the file lacks the column,
     * or it has another type) turns the column tests off for the file. None by default: {@link #test} never throws
     * for a row a column test rejects.
     */
    default List<ColumnTest> columnGuards() {
        return List.of();
    }

    /**
     * The guards of the rows of one row group: {@link #columnGuards()}, or weaker ones that the group's statistics
     * make as safe (a row passing them still cannot make {@link #test} throw), so that fewer of its rows fail a
     * guard and are decoded for nothing. Asked once per row group whose rows are read; a guard list the reader
     * cannot read in full is ignored for the group's own. {@link #columnGuards()} by default.
     */
    default List<ColumnTest> columnGuards(GroupStatistics group) {
        return columnGuards();
    }

    /**
     * Whether {@link #test} never returns true: a prefilter that hands on the rows it accepts itself (a visit on
     * columns), so the reader returns no row and needs no column beyond {@link #columns()}, not even to find a row
     * group's candidate rows. False by default.
     */
    default boolean keepsNone() {
        return false;
    }

    /**
     * Whether the prefilter accounts for every row of a row group on the group's statistics alone (as if it had
     * tested each row and returned false): a reader that decides rows on the prefilter's columns then reads nothing
     * of the group. Asked once per row group that pruning leaves, before any of its pages is read; readers that do
     * not decode columns never ask. False by default.
     */
    default boolean takesWholeGroup(GroupStatistics group) throws IOException {
        return false;
    }

    /**
     * The prefilter for the rows of one row group: this one, or one that reads fewer {@link #columns()} because the
     * group's statistics decide what the others would (a partition check proven for every row of the group). Asked
     * once per row group whose rows are read, after {@link #takesWholeGroup}; a reader that decodes columns then
     * fetches and decodes only the returned prefilter's columns of the group (the others read as absent in its
     * partial rows), and takes that prefilter's {@link #test} and {@link #columnGuards(GroupStatistics)}. Its
     * columns are a subset of this one's; its {@link #columnTests}, {@link #columnTestsDecide} and
     * {@link #keepsNone} are this one's. Readers that do not decode columns never ask. This one by default.
     */
    default RowPrefilter forGroup(GroupStatistics group) {
        return this;
    }
}
