package dev.ourios.parquet.read;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

/**
 * Assembles {@link LogRecord}s from one {@link ColumnCursor} per needed leaf column: the same records, field for
 * field, as {@link LogRecordMaterializer} builds through parquet-java's record reader (differential tests in
 * {@code ColumnarRowsTest}), at a fraction of the CPU: parquet-java's per-value assembly state machine and level
 * decoders would take most of a compaction's input readers' time.
 *
 * <p>Used for unfiltered reads (compaction, full scans) of files whose column chunks use only the encodings
 * {@link ColumnCursor} decodes ({@link #supports}); filtered reads keep parquet-java's reader, which also skips
 * pages through the column index.
 *
 * <p>Lists follow the record reader's rules: a {@code params} element is added whenever the element struct is
 * defined (null fields read as 0 / null); a {@code separators} element only when its value is non-null; a null list
 * reads as an empty one.
 */
final class ColumnarRows {
    private static final Set<Kind> EXTRAS = EnumSet.of(Kind.EXTRA_STRING, Kind.EXTRA_BYTES, Kind.EXTRA_INT64,
            Kind.EXTRA_INT32, Kind.EXTRA_DOUBLE, Kind.EXTRA_FLOAT, Kind.EXTRA_BOOLEAN);

    private final RowState row = new RowState();
    private final Field[] fields;
    private final ColumnDescriptor[] leaves;
    /** The current row group's cursors, made on first use ({@link #cursorOf}). */
    private final ColumnCursor[] cursors;
    /** Where the current row group's cursors get their pages. */
    private Function<ColumnDescriptor, PageReader> groupPages;
    /** The schema leaves out REQUIRED columns: they read as empty strings (see {@link #readRow}). */
    private final boolean partial;
    /** Whether a row reads a list column ({@code params}, {@code separators}) or an extra column. */
    private final boolean lists;
    private final boolean extraColumns;
    /** Each kind's field, or null when the file has no such column (extras: see {@link #extrasByName}). */
    private final Field[] byKind = new Field[Kind.values().length];
    /** The extra columns in the order a record's extras map holds them (by name). */
    private final Field[] extrasByName;
    /**
     * A partial row's observed time, decoded only for a row whose time is 0: the one row whose effective time it
     * decides (any other row's is its time). Its pages are then decompressed only where such a row lies. Null
     * when the schema is not partial or lacks the time or the observed time column (read as usual then).
     */
    private final Field observedUnlessTimeIsZero;
    /** The column tests and guards this schema can read. */
    private final TestPlan tests;
    private final TestPlan guards;
    /**
     * Whether the tests decide the prefilter's verdict (see {@link RowPrefilter#columnTestsDecide}), every one of
     * them applied here.
     */
    private final boolean testsDecide;
    /** Those {@link #decideRun} reads in the current row group: the ones its statistics do not prove. */
    private TestPlan groupTests;
    private TestPlan groupGuards;
    /**
     * Whether {@link #decideRun} keeps rows in the current row group: the tests decide, and every test its statistics
     * prove is proven on values (no nulls), so a row that passes the tests read holds a passing value in each.
     */
    private boolean groupTestsDecide;
    /** The fields the current row group reads as absent (see {@link #startGroup(Function, BlockMetaData, List, Set)}). */
    private final boolean[] absent;
    // The row encodeNext wrote last (for the caller's partition check).
    private String lastTenant;
    private long lastEffectiveTime;

    ColumnarRows(MessageType requested) {
        this(requested, false);
    }

    ColumnarRows(MessageType requested, boolean partial) {
        this(requested, partial, List.of(), List.of(), false);
    }

    /**
     * Rows of {@code requested} (partial: see {@link #readRow}), with the column tests and guards {@link #decideRun}
     * reads (see {@link RowPrefilter#columnTests}): the tests on a column of the schema that
     * {@link ColumnCursor#canTest} accepts (the others are left out), and none at all unless every guard is such.
     * {@code testsDecide}: the prefilter's {@link RowPrefilter#columnTestsDecide}; it holds here only when every
     * test is applied.
     */
    ColumnarRows(MessageType requested, boolean partial, List<ColumnTest> tests, List<ColumnTest> guards,
            boolean testsDecide) {
        this.partial = partial;
        List<Field> plan = new ArrayList<>();
        List<ColumnDescriptor> needed = new ArrayList<>();
        for (Type field : requested.getFields()) {
            String name = field.getName();
            if (name.equals(Columns.PARAMS)) {
                GroupType element = listElement(field).asGroupType();
                String[] elementPath = listElementPath(field);
                int elementDef = requested.getMaxDefinitionLevel(elementPath);
                int typeTag = leaf(requested, needed, append(elementPath, "type_tag"));
                int value = element.containsField("value") ? leaf(requested, needed, append(elementPath, "value")) : -1;
                plan.add(new Field(Kind.PARAMS, name, typeTag, value, elementDef));
            } else if (name.equals(Columns.SEPARATORS)) {
                plan.add(new Field(Kind.SEPARATORS, name, leaf(requested, needed, listElementPath(field)), -1, 0));
            } else {
                plan.add(new Field(kindOf(field.asPrimitiveType()), name, leaf(requested, needed, new String[] {name}),
                        -1, 0));
            }
        }
        this.fields = plan.toArray(new Field[0]);
        this.absent = new boolean[fields.length];
        this.lists = plan.stream().anyMatch(f -> f.kind == Kind.PARAMS || f.kind == Kind.SEPARATORS);
        this.extraColumns = plan.stream().anyMatch(f -> EXTRAS.contains(f.kind));
        this.leaves = needed.toArray(new ColumnDescriptor[0]);
        this.cursors = new ColumnCursor[leaves.length];
        for (Field f : fields) {
            if (!EXTRAS.contains(f.kind)) {
                byKind[f.kind.ordinal()] = f;
            }
        }
        this.extrasByName = plan.stream().filter(f -> EXTRAS.contains(f.kind))
                .sorted((a, b) -> a.name.compareTo(b.name)).toArray(Field[]::new);
        this.observedUnlessTimeIsZero = partial && byKind[Kind.TIME.ordinal()] != null
                ? byKind[Kind.OBSERVED_TIME.ordinal()] : null;
        TestPlan testPlan = plan(tests, false);
        TestPlan guardPlan = plan(guards, true);
        boolean guarded = guardPlan.tests.length == guards.size();
        this.tests = guarded ? testPlan : TestPlan.NONE;
        this.guards = guarded ? guardPlan : TestPlan.NONE;
        this.testsDecide = testsDecide && guarded && testPlan.tests.length == tests.size();
        this.groupTests = this.tests;
        this.groupGuards = this.guards;
        this.groupTestsDecide = this.testsDecide;
    }

    /**
     * The tests of {@code wanted} this schema can read, each one's cursor, and for a range whose 0 stands for another
     * column's value ({@link ColumnTest.LongRange#zeroFallback}) how that value is read. Such a range is read only
     * among {@code guards}, one of them, and only as the time column's with the observed time as its fallback, the
     * one column a partial row reads for the rows holding 0 alone ({@link #passRunFallingBack}). Elsewhere a guard
     * takes a 0 as failing (the row is then decoded and tested), and a test is left out.
     */
    private TestPlan plan(List<ColumnTest> wanted, boolean guards) {
        List<ColumnTest> applied = new ArrayList<>();
        List<Integer> cursorsOf = new ArrayList<>();
        List<ZeroFallback> fallbacks = new ArrayList<>();
        for (ColumnTest t : wanted) {
            int leaf = testableLeaf(t.column(), t);
            ZeroFallback fallback = null;
            if (leaf >= 0 && t instanceof ColumnTest.LongRange r && r.zeroFallback() != null) {
                ColumnTest.LongRange other = new ColumnTest.LongRange(r.zeroFallback(), r.min(), r.max(), false);
                int otherLeaf = testableLeaf(r.zeroFallback(), other);
                // Read as a partial row's observed time is (see passRunFallingBack): the fallback of the time column.
                boolean readable = guards && fallbacks.stream().allMatch(java.util.Objects::isNull)
                        && observedUnlessTimeIsZero != null && otherLeaf == observedUnlessTimeIsZero.leaf
                        && leaf == byKind[Kind.TIME.ordinal()].leaf;
                fallback = readable ? new ZeroFallback(otherLeaf, other,
                        new ColumnTest.LongRange(r.column(), r.min(), r.max(), r.nullPasses(), true),
                        new ColumnTest.LongRange(r.column(), 0, 0, false)) : null;
                if (fallback == null && !guards) {
                    leaf = -1; // a test rejects on its value: a 0 it cannot follow to the fallback decides nothing
                }
            }
            if (leaf >= 0) {
                applied.add(t);
                cursorsOf.add(leaf);
                fallbacks.add(fallback);
            }
        }
        return new TestPlan(applied.toArray(new ColumnTest[0]), cursorsOf.stream().mapToInt(Integer::intValue)
                .toArray(), fallbacks.toArray(new ZeroFallback[0]));
    }

    /** The leaf of top-level column {@code name} when {@code test} can be read on it, else -1. */
    private int testableLeaf(String name, ColumnTest test) {
        for (Field f : fields) {
            if (f.name.equals(name) && f.kind != Kind.PARAMS && f.kind != Kind.SEPARATORS
                    && ColumnCursor.canTest(leaves[f.leaf], test)) {
                return f.leaf;
            }
        }
        return -1;
    }

    /** A row's verdict from {@link #decideRun}: decode it and let the prefilter test it. */
    static final byte TEST = 0;
    /** A row's verdict from {@link #decideRun}: the prefilter would reject it. */
    static final byte REJECT = 1;
    /** A row's verdict from {@link #decideRun}: the prefilter would keep it. */
    static final byte KEEP = 2;

    /**
     * Decides the rows of the current row group, of the first {@code k} of {@code [row, row + n)}, that the column
     * tests and guards decide without decoding them: {@link #REJECT} a row that fails a column test while passing
     * every guard; {@link #KEEP}, when the tests decide ({@link RowPrefilter#columnTestsDecide}), a row that passes
     * every guard and every test with a value in each tested column; {@link #TEST} every other row. Sets
     * {@code verdicts[i]} for row {@code row + i} and returns {@code k} (at least 1 when {@code n > 0}): the rows up
     * to where the page holding {@code row} ends in a tested column. Each value is read in place in its page; unless
     * the tests decide, the guards are read only when a row of the run fails a test; the other columns' cursors are
     * not moved. Nothing past {@code row} is consumed: runs are asked for in increasing order, and {@link #readRow}
     * may then read any row of the run.
     */
    int decideRun(long row, int n, byte[] verdicts) {
        fellBack.clear();
        if (groupTests.tests.length == 0 && !groupTestsDecide) {
            Arrays.fill(verdicts, 0, n, TEST);
            return n;
        }
        boolean[] passed = scratch(0, n);
        boolean[] valued = groupTestsDecide ? scratch(1, n) : null;
        int k = passRun(groupTests, row, n, passed, valued);
        if (valued == null) {
            boolean allPass = true;
            for (int i = 0; i < k; i++) {
                allPass &= passed[i];
            }
            if (allPass) {
                Arrays.fill(verdicts, 0, k, TEST);
                return k;
            }
        }
        if (groupGuards.tests.length == 0) { // nothing guarded: every row passes its guards (a compaction output)
            for (int i = 0; i < k; i++) {
                verdicts[i] = !passed[i] ? REJECT : valued != null && valued[i] ? KEEP : TEST;
            }
            return k;
        }
        boolean[] guarded = scratch(2, k);
        k = passRun(groupGuards, row, k, guarded, null);
        for (int i = 0; i < k; i++) {
            verdicts[i] = !guarded[i] ? TEST : !passed[i] ? REJECT : valued != null && valued[i] ? KEEP : TEST;
        }
        return k;
    }

    /**
     * For a count: how many of the rows {@code [row, row + n)} {@link #decideRun} would keep, where the group's one
     * column test decides every row alone (no guard, no zero fallback, the tests decide) and a cursor can sum its
     * verdicts ({@link ColumnCursor#countPassing}); {@link #counted} is then how many rows it decided. -1 where it
     * cannot: the caller decides the run with {@link #decideRun}.
     */
    int countRun(long row, int n) {
        if (!groupTestsDecide || groupGuards.tests.length != 0 || groupTests.tests.length != 1
                || groupTests.fallbacks[0] != null) {
            return -1;
        }
        ColumnCursor c = cursorOf(groupTests.cursors[0]);
        int passing = c.countPassing(row, n, groupTests.tests[0]);
        counted = passing < 0 ? 0 : c.counted();
        return passing;
    }

    /** The rows the last {@link #countRun} decided. */
    private int counted;

    int counted() {
        return counted;
    }

    /**
     * Scratch for {@link #decideRun}: a run's verdicts of the tests, of the values present, of the guards; of a range
     * with a zero fallback, its verdicts with a 0 passing and which rows hold 0.
     */
    private final boolean[][] runScratch = {new boolean[0], new boolean[0], new boolean[0], new boolean[0],
        new boolean[0]};

    private boolean[] scratch(int which, int n) {
        if (runScratch[which].length < n) {
            runScratch[which] = new boolean[n];
        }
        return runScratch[which];
    }

    /**
     * Every test of {@code plan} on the rows {@code [row, row + n)} (see {@link ColumnCursor#peekPassesRun}), in
     * order; once every row of the run failed one, the later tests' columns are not read. With {@code valued}, it
     * also says which rows hold a value in every tested column (where a row failed before a column was read, its
     * entry is left as it is: the row is rejected anyway).
     */
    private int passRun(TestPlan plan, long row, int n, boolean[] passes, boolean[] valued) {
        Arrays.fill(passes, 0, n, true);
        if (valued != null) {
            Arrays.fill(valued, 0, n, true);
        }
        int k = n;
        int fallingBack = -1;
        for (int i = 0; i < plan.tests.length; i++) {
            if (plan.fallbacks[i] != null) {
                fallingBack = i; // last: the run is as short as it gets before a fallback value is read
                continue;
            }
            k = cursorOf(plan.cursors[i]).peekPassesRun(row, k, plan.tests[i], passes, valued);
            if (noneOf(passes, k)) {
                return k;
            }
        }
        if (fallingBack >= 0) {
            k = passRunFallingBack(plan.cursors[fallingBack], plan.fallbacks[fallingBack], row, k, passes, valued);
        }
        return k;
    }

    /**
     * A range whose 0 stands for another column's value ({@link ColumnTest.LongRange#zeroFallback}) on the rows
     * {@code [row, row + n)}, as {@link ColumnCursor#peekPassesRun} reads one test: a row holding 0 passes when its
     * value in the fallback column does. That value is read where it lies, for the rows holding 0 alone, and kept
     * for the run ({@link #fellBack}): the fallback column is the observed time of a partial row, which
     * {@link #readRow} reads only for a row whose time is 0, from what is kept when the run read it (its cursor may
     * have moved past that row to a later one holding 0).
     */
    private int passRunFallingBack(int leaf, ZeroFallback fallback, long row, int n, boolean[] passes,
            boolean[] valued) {
        ColumnCursor c = cursorOf(leaf);
        boolean[] own = scratch(3, n);
        Arrays.fill(own, 0, n, true);
        int k = c.peekPassesRun(row, n, fallback.orZero(), own, valued);
        boolean[] zero = scratch(4, k);
        Arrays.fill(zero, 0, k, true);
        k = c.peekPassesRun(row, k, fallback.zero(), zero, null);
        ColumnTest.LongRange other = fallback.other();
        boolean zeroInRange = other.min() <= 0 && 0 <= other.max();
        ColumnCursor fallbackCursor = null;
        for (int i = 0; i < k; i++) {
            if (own[i] && zero[i] && !zeroInRange) {
                fallbackCursor = fallbackCursor == null ? cursorOf(fallback.leaf()) : fallbackCursor;
                boolean present = fallbackCursor.peekLong(row + i);
                long v = fallbackCursor.peekedLong();
                fellBack.add(row + i, present, v);
                own[i] = present && v >= other.min() && v <= other.max();
            }
            passes[i] &= own[i];
        }
        return k;
    }

    /** The fallback values {@link #passRunFallingBack} read in the current run, by row. */
    private final FallbackValues fellBack = new FallbackValues();

    /** Fallback values read by row, in increasing row order (a run's rows holding 0: a few). */
    private static final class FallbackValues {
        private long[] rows = new long[8];
        private long[] values = new long[8];
        private boolean[] present = new boolean[8];
        private int size;

        void clear() {
            size = 0;
        }

        void add(long row, boolean isPresent, long value) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
                values = Arrays.copyOf(values, size * 2);
                present = Arrays.copyOf(present, size * 2);
            }
            rows[size] = row;
            values[size] = value;
            present[size] = isPresent;
            size++;
        }

        /** The index of {@code row}'s value, or -1 when it was not read. */
        int find(long row) {
            int at = Arrays.binarySearch(rows, 0, size, row);
            return at >= 0 ? at : -1;
        }
    }

    /** The cursor of leaf {@code leaf} in the current row group, made on first use. */
    private ColumnCursor cursorOf(int leaf) {
        ColumnCursor c = cursors[leaf];
        if (c == null) {
            c = new ColumnCursor(leaves[leaf], groupPages.apply(leaves[leaf]));
            cursors[leaf] = c;
        }
        return c;
    }

    private static boolean noneOf(boolean[] values, int n) {
        for (int i = 0; i < n; i++) {
            if (values[i]) {
                return false;
            }
        }
        return true;
    }


    /**
     * True when every column chunk of {@code blocks} that the requested schema reads (its leaf columns
     * {@code requestedColumns}) uses only encodings {@link ColumnCursor} decodes, and every top-level primitive is
     * non-repeated.
     */
    static boolean supports(MessageType requested, List<ColumnDescriptor> requestedColumns,
            List<BlockMetaData> blocks) {
        for (Type field : requested.getFields()) {
            if (field.isPrimitive() && field.getRepetition() == Repetition.REPEATED) {
                return false;
            }
            if (field.isPrimitive() && field.asPrimitiveType().getPrimitiveTypeName()
                    == PrimitiveType.PrimitiveTypeName.INT96) {
                return false;
            }
        }
        Set<ColumnPath> paths = null; // the requested columns' paths: built only for a chunk that needs them
        for (BlockMetaData block : blocks) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (supported(chunk.getEncodings())) {
                    continue;
                }
                if (paths == null) {
                    paths = new java.util.HashSet<>();
                    for (ColumnDescriptor c : requestedColumns) {
                        paths.add(ColumnPath.get(c.getPath()));
                    }
                }
                if (paths.contains(chunk.getPath())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether the cursors decode every one of {@code encodings}. */
    private static boolean supported(Set<org.apache.parquet.column.Encoding> encodings) {
        for (org.apache.parquet.column.Encoding e : encodings) {
            if (!ColumnCursor.SUPPORTED.contains(e)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Starts reading a row group: one cursor per needed column, positioned before its first entry, made (and its
     * column's dictionary read) on the column's first use.
     */
    void startGroup(PageReadStore pages) {
        startGroup(pages::getPageReader);
    }

    /** As {@link #startGroup(PageReadStore)}, each column's pages asked of {@code pages} on its first use. */
    void startGroup(Function<ColumnDescriptor, PageReader> pages) {
        groupPages = pages;
        Arrays.fill(cursors, null);
        Arrays.fill(absent, false);
        groupTests = tests;
        groupGuards = guards;
        groupTestsDecide = testsDecide;
    }

    /**
     * Starts reading row group {@code block} for {@link #decideRun}: as {@link #startGroup(Function)}, leaving
     * out the tests and guards the group's column statistics prove for every row ({@link StatisticsProof}).
     */
    void startGroup(PageReadStore pages, BlockMetaData block) {
        startGroup(pages::getPageReader, block, null);
    }

    /**
     * As {@link #startGroup(PageReadStore, BlockMetaData)} with the group's own {@code guards} in place of the
     * reader's (see {@link RowPrefilter#columnGuards(GroupStatistics)}): when every one of them can be read here and
     * the reader's can too (its column tests are on); otherwise (or null) the reader's.
     */
    void startGroup(Function<ColumnDescriptor, PageReader> pages, BlockMetaData block,
            List<ColumnTest> groupOwnGuards) {
        startGroup(pages, block, groupOwnGuards, null);
    }

    /**
     * As {@link #startGroup(Function, BlockMetaData, List)}, the group's rows read on {@code groupColumns} alone
     * (top-level names; null: every column of the schema): the others read as absent and their pages are never
     * asked for. A column a test or guard of the group reads must be among them.
     */
    void startGroup(Function<ColumnDescriptor, PageReader> pages, BlockMetaData block,
            List<ColumnTest> groupOwnGuards, Set<String> groupColumns) {
        startGroup(pages);
        if (groupColumns != null) {
            for (int i = 0; i < fields.length; i++) {
                absent[i] = !groupColumns.contains(fields[i].name);
            }
        }
        groupTests = unproven(tests, block);
        TestPlan own = groupOwnGuards == null || tests.tests.length == 0 ? null : plan(groupOwnGuards, true);
        groupGuards = unproven(own != null && own.tests.length == groupOwnGuards.size() ? own : guards, block);
        groupTestsDecide = testsDecide && provenOnValues(tests, groupTests, block);
    }

    /** Whether each test of {@code plan} left out of {@code left} is proven on values: its chunk has no null. */
    private boolean provenOnValues(TestPlan plan, TestPlan left, BlockMetaData block) {
        for (int i = 0; i < plan.tests.length; i++) {
            if (!Arrays.asList(left.tests).contains(plan.tests[i])) {
                ColumnChunkMetaData chunk = chunk(block, leaves[plan.cursors[i]]);
                if (!StatisticsProof.noNulls(chunk.getStatistics())) {
                    return false;
                }
            }
        }
        return true;
    }

    private TestPlan unproven(TestPlan plan, BlockMetaData block) {
        List<ColumnTest> left = new ArrayList<>(plan.tests.length);
        List<Integer> cursorsOf = new ArrayList<>(plan.tests.length);
        List<ZeroFallback> fallbacks = new ArrayList<>(plan.tests.length);
        for (int i = 0; i < plan.tests.length; i++) {
            ColumnChunkMetaData chunk = chunk(block, leaves[plan.cursors[i]]);
            if (chunk == null || !StatisticsProof.everyRowPasses(plan.tests[i], chunk.getStatistics())) {
                left.add(plan.tests[i]);
                cursorsOf.add(plan.cursors[i]);
                fallbacks.add(plan.fallbacks[i]);
            }
        }
        return left.size() == plan.tests.length ? plan : new TestPlan(left.toArray(new ColumnTest[0]),
                cursorsOf.stream().mapToInt(Integer::intValue).toArray(), fallbacks.toArray(new ZeroFallback[0]));
    }

    private static ColumnChunkMetaData chunk(BlockMetaData block, ColumnDescriptor leaf) {
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (Arrays.equals(c.getPath().toArray(), leaf.getPath())) {
                return c;
            }
        }
        return null;
    }

    /**
     * The top-level columns {@link #decideRun} reads in the current row group: those of the tests and guards its
     * statistics do not prove, and a zero fallback's (all of them when it decides no row: every row is then decoded).
     * Any other column's cursor is made only by {@link #readRow}.
     */
    Set<String> decidingColumns() {
        java.util.BitSet used = new java.util.BitSet(leaves.length);
        if (groupTests.tests.length == 0 && !groupTestsDecide) {
            used.set(0, leaves.length); // every row is decoded: all of them
        }
        for (TestPlan plan : new TestPlan[] {groupTests, groupGuards}) {
            for (int i = 0; i < plan.tests.length; i++) {
                used.set(plan.cursors[i]);
                if (plan.fallbacks[i] != null) {
                    used.set(plan.fallbacks[i].leaf());
                }
            }
        }
        Set<String> names = new java.util.HashSet<>();
        for (Field f : fields) {
            if (used.get(f.leaf)) {
                names.add(f.name);
            }
        }
        return names;
    }

    /** The next row of the current row group (the caller counts rows). */
    LogRecord read() {
        return read(-1);
    }

    /**
     * Row {@code index} of the current row group (rows are visited in increasing order; the rows between are
     * skipped, and so are pages the page store left out). With a schema that leaves out REQUIRED columns (a
     * {@link RowPrefilter}'s columns only), those read as empty strings: the record is a partial one, and its
     * observed time is decoded only when its time is 0 (absent otherwise; see {@link RowPrefilter}).
     */
    LogRecord readRow(long index) {
        return read(index);
    }

    private LogRecord read(long index) {
        RowState r = row;
        if (partial) {
            r.reset(lists, extraColumns);
        } else {
            r.reset();
        }
        Field observed = partial ? observedUnlessTimeIsZero : null;
        boolean observedAbsent = false;
        for (int i = 0; i < fields.length; i++) {
            if (absent[i]) {
                observedAbsent |= fields[i] == observed;
                if (fields[i].kind == Kind.PARAMS || fields[i].kind == Kind.SEPARATORS) {
                    throw new IllegalStateException("BUG: list column " + fields[i].name + " left out of a group");
                }
            }
        }
        if (index >= 0) {
            for (int i = 0; i < fields.length; i++) {
                Field f = fields[i];
                if (f != observed && !absent[i]) {
                    seekField(f, index);
                }
            }
        }
        for (int i = 0; i < fields.length; i++) {
            Field f = fields[i];
            if (f == observed || absent[i]) {
                continue; // the observed time: read below, when the time is 0; an absent column: never
            }
            ColumnCursor c = cursorOf(f.leaf);
            switch (f.kind) {
                case PARAMS -> readParams(f, c, r);
                case SEPARATORS -> {
                    do {
                        if (c.next()) {
                            r.separators.add(c.bytes());
                        }
                    } while (c.peekRepetitionLevel() > 0);
                }
                default -> {
                    if (c.next()) {
                        set(f, c, r);
                    }
                }
            }
        }
        if (observed != null && r.timeUnixNano == 0 && !observedAbsent) {
            int kept = index >= 0 ? fellBack.find(index) : -1;
            if (kept >= 0) { // read by decideRun, whose cursor may have moved on to a later row holding 0
                r.observedTimeUnixNano = fellBack.present[kept] ? fellBack.values[kept] : null;
            } else {
                ColumnCursor c = cursorOf(observed.leaf);
                if (index >= 0) {
                    c.seekRow(index);
                }
                if (c.next()) {
                    set(observed, c, r);
                }
            }
        }
        if (partial) {
            r.tenantId = r.tenantId == null ? "" : r.tenantId;
            r.attributes = r.attributes == null ? "" : r.attributes;
            r.resourceAttributes = r.resourceAttributes == null ? "" : r.resourceAttributes;
        }
        return r.build();
    }

    /** Moves the cursors of {@code f}'s leaves to row {@code index} of the group. */
    private void seekField(Field f, long index) {
        cursorOf(f.leaf).seekRow(index);
        if (f.second >= 0) {
            cursorOf(f.second).seekRow(index);
        }
    }

    /**
     * Encodes the next row of the current row group into {@code out}, re-projected (STORAGE.md §5: the effective
     * time recomputed from time and observed time, the service name derived from the resource attributes by
     * {@code serviceOf}), as {@link RowCodec#encode} encodes the re-projected record {@link #read} returns
     * ({@code ColumnarRowsTest} compares the two), without building the record: byte values go from the pages to
     * {@code out} as they are. Returns what {@link RowCodec#encode} returns; {@link #lastTenant} and
     * {@link #lastEffectiveTime} then describe the row. A full schema only (not a prefilter's).
     */
    int encodeNext(long origin, UnaryOperator<String> serviceOf, StringTable strings, RowCodec.Output out) {
        // The sort-key prefix needs the time columns and the resource attributes first: cursors are independent,
        // so each column is read when the codec needs it, these first.
        long time = 0;
        ColumnCursor c = cursor(Kind.TIME);
        if (c != null && c.next()) {
            time = c.int64();
        }
        boolean hasObserved = false;
        long observed = 0;
        c = cursor(Kind.OBSERVED_TIME);
        if (c != null && c.next()) {
            hasObserved = true;
            observed = c.int64();
        }
        skip(Kind.EFFECTIVE_TIME); // re-projected
        skip(Kind.SERVICE_NAME); // re-projected
        String resource = null;
        c = cursor(Kind.RESOURCE_ATTRIBUTES);
        if (c != null && c.next()) {
            resource = c.string();
        }
        long effective = time != 0 ? time : observed; // LogRecord.effectiveTime: 0 when neither is known
        int start = out.size();
        long refs = out.interned(resource == null ? null : serviceOf.apply(resource), strings);
        out.i64(effective);
        out.i64(origin);
        String tenant = null;
        c = cursor(Kind.TENANT);
        if (c != null && c.next()) {
            tenant = c.string();
        }
        // The record's constructor checks, in its order: tenant, attributes, resource attributes, trace and span id.
        Objects.requireNonNull(tenant, "tenant_id");
        refs += out.interned(tenant, strings);
        out.i64(int64(Kind.TEMPLATE_ID));
        out.i32(int32(Kind.TEMPLATE_VERSION));
        out.i64(time);
        if (hasObserved) {
            out.i32(1);
            out.i64(observed);
        } else {
            out.i32(0);
        }
        out.i32(1);
        out.i64(effective);
        out.i32(int32(Kind.SEVERITY_NUMBER));
        refs += out.interned(string(Kind.SEVERITY_TEXT), strings);
        refs += out.interned(string(Kind.SCOPE_NAME), strings);
        refs += out.interned(string(Kind.SCOPE_VERSION), strings);
        c = cursor(Kind.ATTRIBUTES);
        if (c == null || !c.next()) {
            throw new NullPointerException("attributes");
        }
        c.copyStringTo(out);
        out.i32(int32(Kind.DROPPED_ATTRIBUTES_COUNT));
        Objects.requireNonNull(resource, "resource_attributes");
        refs += out.interned(resource, strings);
        copyId(Kind.TRACE_ID, "trace_id", 16, out);
        copyId(Kind.SPAN_ID, "span_id", 8, out);
        out.i32(int32(Kind.FLAGS));
        refs += out.interned(string(Kind.EVENT_NAME), strings);
        out.i32(int32(Kind.BODY_KIND));
        c = cursor(Kind.BODY);
        if (c != null && c.next()) {
            c.copyBytesTo(out);
        } else {
            out.i32(RowCodec.NULL);
        }
        encodeParams(out);
        encodeSeparators(out);
        c = cursor(Kind.CONFIDENCE);
        out.i32(Float.floatToRawIntBits(c != null && c.next() ? c.float32() : 0f));
        c = cursor(Kind.LOSSY_FLAG);
        out.i32(c != null && c.next() && c.bool() ? 1 : 0);
        refs += out.interned(string(Kind.SCOPE_ATTRIBUTES), strings);
        refs += out.interned(string(Kind.RESOURCE_SCHEMA_URL), strings);
        refs += out.interned(string(Kind.SCOPE_SCHEMA_URL), strings);
        refs += encodeExtras(strings, out);
        lastTenant = tenant;
        lastEffectiveTime = effective;
        return (int) Math.min(Integer.MAX_VALUE, out.size() - start + refs);
    }

    /** The tenant of the row {@link #encodeNext} wrote last. */
    String lastTenant() {
        return lastTenant;
    }

    /** The (re-projected) effective time of the row {@link #encodeNext} wrote last. */
    long lastEffectiveTime() {
        return lastEffectiveTime;
    }

    private ColumnCursor cursor(Kind kind) {
        Field f = byKind[kind.ordinal()];
        return f == null ? null : cursorOf(f.leaf);
    }

    private void skip(Kind kind) {
        ColumnCursor c = cursor(kind);
        if (c != null) {
            c.next();
        }
    }

    private long int64(Kind kind) {
        ColumnCursor c = cursor(kind);
        return c != null && c.next() ? c.int64() : 0;
    }

    private int int32(Kind kind) {
        ColumnCursor c = cursor(kind);
        return c != null && c.next() ? c.int32() : 0;
    }

    private String string(Kind kind) {
        ColumnCursor c = cursor(kind);
        return c != null && c.next() ? c.string() : null;
    }

    private void copyId(Kind kind, String name, int length, RowCodec.Output out) {
        ColumnCursor c = cursor(kind);
        if (c == null || !c.next()) {
            out.i32(RowCodec.NULL);
            return;
        }
        if (c.byteLength() != length) {
            throw new IllegalArgumentException(name + " must be " + length + " bytes, got " + c.byteLength());
        }
        c.copyBytesTo(out);
    }

    private void encodeParams(RowCodec.Output out) {
        Field f = byKind[Kind.PARAMS.ordinal()];
        if (f == null) {
            out.i32(0);
            return;
        }
        ColumnCursor typeTag = cursorOf(f.leaf);
        ColumnCursor value = f.second >= 0 ? cursorOf(f.second) : null;
        int countAt = out.size();
        out.i32(0);
        int n = 0;
        do {
            boolean tagPresent = typeTag.next();
            boolean valuePresent = value != null && value.next();
            if (typeTag.definitionLevel() >= f.elementDefinitionLevel) {
                out.i32(tagPresent ? typeTag.int32() : 0);
                if (valuePresent) {
                    value.copyBytesTo(out);
                } else {
                    out.i32(RowCodec.NULL);
                }
                n++;
            }
        } while (typeTag.peekRepetitionLevel() > 0);
        out.setI32(countAt, n);
    }

    private void encodeSeparators(RowCodec.Output out) {
        ColumnCursor c = cursor(Kind.SEPARATORS);
        if (c == null) {
            out.i32(0);
            return;
        }
        int countAt = out.size();
        out.i32(0);
        int n = 0;
        do {
            if (c.next()) {
                c.copyBytesTo(out);
                n++;
            }
        } while (c.peekRepetitionLevel() > 0);
        out.setI32(countAt, n);
    }

    /** The extras as a record's map holds them: present values only, by name. Returns the referenced bytes. */
    private long encodeExtras(StringTable strings, RowCodec.Output out) {
        int countAt = out.size();
        out.i32(0);
        int n = 0;
        long refs = 0;
        for (Field f : extrasByName) {
            ColumnCursor c = cursorOf(f.leaf);
            if (!c.next()) {
                continue;
            }
            refs += out.interned(f.name, strings);
            switch (f.kind) {
                case EXTRA_STRING -> {
                    out.i32(RowCodec.X_STRING);
                    c.copyStringTo(out);
                }
                case EXTRA_BYTES -> {
                    out.i32(RowCodec.X_BYTES);
                    c.copyBytesTo(out);
                }
                case EXTRA_INT64 -> {
                    out.i32(RowCodec.X_LONG);
                    out.i64(c.int64());
                }
                case EXTRA_INT32 -> {
                    out.i32(RowCodec.X_INT);
                    out.i32(c.int32());
                }
                case EXTRA_DOUBLE -> {
                    out.i32(RowCodec.X_DOUBLE);
                    out.i64(Double.doubleToRawLongBits(c.float64()));
                }
                case EXTRA_FLOAT -> {
                    out.i32(RowCodec.X_FLOAT);
                    out.i32(Float.floatToRawIntBits(c.float32()));
                }
                case EXTRA_BOOLEAN -> {
                    out.i32(RowCodec.X_BOOLEAN);
                    out.i32(c.bool() ? 1 : 0);
                }
                default -> throw new IllegalStateException("BUG: " + f.kind + " is not an extra");
            }
            n++;
        }
        out.setI32(countAt, n);
        return refs;
    }

    private void readParams(Field f, ColumnCursor typeTag, RowState r) {
        ColumnCursor value = f.second >= 0 ? cursorOf(f.second) : null;
        do {
            boolean tagPresent = typeTag.next();
            boolean valuePresent = value != null && value.next();
            if (typeTag.definitionLevel() >= f.elementDefinitionLevel) {
                r.params.add(new Param(tagPresent ? typeTag.int32() : 0, valuePresent ? value.bytes() : null));
            }
        } while (typeTag.peekRepetitionLevel() > 0);
    }

    private static void set(Field f, ColumnCursor c, RowState r) {
        switch (f.kind) {
            case TENANT -> r.tenantId = c.string();
            case TEMPLATE_ID -> r.templateId = c.int64();
            case TEMPLATE_VERSION -> r.templateVersion = c.int32();
            case TIME -> r.timeUnixNano = c.int64();
            case OBSERVED_TIME -> r.observedTimeUnixNano = c.int64();
            case EFFECTIVE_TIME -> r.effectiveTimeUnixNano = c.int64();
            case SEVERITY_NUMBER -> r.severityNumber = c.int32();
            case SEVERITY_TEXT -> r.severityText = c.string();
            case SCOPE_NAME -> r.scopeName = c.string();
            case SCOPE_VERSION -> r.scopeVersion = c.string();
            case ATTRIBUTES -> r.attributes = c.string();
            case DROPPED_ATTRIBUTES_COUNT -> r.droppedAttributesCount = c.int32();
            case RESOURCE_ATTRIBUTES -> r.resourceAttributes = c.string();
            case TRACE_ID -> r.traceId = c.bytes();
            case SPAN_ID -> r.spanId = c.bytes();
            case FLAGS -> r.flags = c.int32();
            case EVENT_NAME -> r.eventName = c.string();
            case BODY_KIND -> r.bodyKind = c.int32();
            case BODY -> r.body = c.bytes();
            case CONFIDENCE -> r.confidence = c.float32();
            case LOSSY_FLAG -> r.lossyFlag = c.bool();
            case SCOPE_ATTRIBUTES -> r.scopeAttributes = c.string();
            case RESOURCE_SCHEMA_URL -> r.resourceSchemaUrl = c.string();
            case SCOPE_SCHEMA_URL -> r.scopeSchemaUrl = c.string();
            case SERVICE_NAME -> r.serviceName = c.string();
            case EXTRA_STRING -> r.extras.put(f.name, c.string());
            case EXTRA_BYTES -> r.extras.put(f.name, c.bytes());
            case EXTRA_INT64 -> r.extras.put(f.name, c.int64());
            case EXTRA_INT32 -> r.extras.put(f.name, c.int32());
            case EXTRA_DOUBLE -> r.extras.put(f.name, c.float64());
            case EXTRA_FLOAT -> r.extras.put(f.name, c.float32());
            case EXTRA_BOOLEAN -> r.extras.put(f.name, c.bool());
            case PARAMS, SEPARATORS -> throw new IllegalStateException("BUG: list column " + f.name + " read as flat");
        }
    }

    private static Kind kindOf(PrimitiveType t) {
        return switch (t.getName()) {
            case Columns.TENANT_ID -> Kind.TENANT;
            case Columns.TEMPLATE_ID -> Kind.TEMPLATE_ID;
            case Columns.TEMPLATE_VERSION -> Kind.TEMPLATE_VERSION;
            case Columns.TIME -> Kind.TIME;
            case Columns.OBSERVED_TIME -> Kind.OBSERVED_TIME;
            case Columns.EFFECTIVE_TIME -> Kind.EFFECTIVE_TIME;
            case Columns.SEVERITY_NUMBER -> Kind.SEVERITY_NUMBER;
            case Columns.SEVERITY_TEXT -> Kind.SEVERITY_TEXT;
            case Columns.SCOPE_NAME -> Kind.SCOPE_NAME;
            case Columns.SCOPE_VERSION -> Kind.SCOPE_VERSION;
            case Columns.ATTRIBUTES -> Kind.ATTRIBUTES;
            case Columns.DROPPED_ATTRIBUTES_COUNT -> Kind.DROPPED_ATTRIBUTES_COUNT;
            case Columns.RESOURCE_ATTRIBUTES -> Kind.RESOURCE_ATTRIBUTES;
            case Columns.TRACE_ID -> Kind.TRACE_ID;
            case Columns.SPAN_ID -> Kind.SPAN_ID;
            case Columns.FLAGS -> Kind.FLAGS;
            case Columns.EVENT_NAME -> Kind.EVENT_NAME;
            case Columns.BODY_KIND -> Kind.BODY_KIND;
            case Columns.BODY -> Kind.BODY;
            case Columns.CONFIDENCE -> Kind.CONFIDENCE;
            case Columns.LOSSY_FLAG -> Kind.LOSSY_FLAG;
            case Columns.SCOPE_ATTRIBUTES -> Kind.SCOPE_ATTRIBUTES;
            case Columns.RESOURCE_SCHEMA_URL -> Kind.RESOURCE_SCHEMA_URL;
            case Columns.SCOPE_SCHEMA_URL -> Kind.SCOPE_SCHEMA_URL;
            case Columns.SERVICE_NAME -> Kind.SERVICE_NAME;
            default -> switch (t.getPrimitiveTypeName()) {
                case BINARY, FIXED_LEN_BYTE_ARRAY -> LogSchema.isStringColumn(t) ? Kind.EXTRA_STRING
                        : Kind.EXTRA_BYTES;
                case INT64 -> Kind.EXTRA_INT64;
                case INT32 -> Kind.EXTRA_INT32;
                case DOUBLE -> Kind.EXTRA_DOUBLE;
                case FLOAT -> Kind.EXTRA_FLOAT;
                case BOOLEAN -> Kind.EXTRA_BOOLEAN;
                default -> throw new IllegalStateException("unsupported extra column " + t);
            };
        };
    }

    /** The path of a standard 3-level list's element: list → repeated group → element. */
    private static String[] listElementPath(Type list) {
        GroupType repeated = list.asGroupType().getType(0).asGroupType();
        return new String[] {list.getName(), repeated.getName(), repeated.getType(0).getName()};
    }

    private static Type listElement(Type list) {
        return list.asGroupType().getType(0).asGroupType().getType(0);
    }

    private static String[] append(String[] path, String name) {
        String[] out = Arrays.copyOf(path, path.length + 1);
        out[path.length] = name;
        return out;
    }

    private static int leaf(MessageType schema, List<ColumnDescriptor> needed, String[] path) {
        needed.add(schema.getColumnDescription(path));
        return needed.size() - 1;
    }

    private enum Kind {
        TENANT, TEMPLATE_ID, TEMPLATE_VERSION, TIME, OBSERVED_TIME, EFFECTIVE_TIME, SEVERITY_NUMBER, SEVERITY_TEXT,
        SCOPE_NAME, SCOPE_VERSION, ATTRIBUTES, DROPPED_ATTRIBUTES_COUNT, RESOURCE_ATTRIBUTES, TRACE_ID, SPAN_ID, FLAGS,
        EVENT_NAME, BODY_KIND, BODY, CONFIDENCE, LOSSY_FLAG, SCOPE_ATTRIBUTES, RESOURCE_SCHEMA_URL, SCOPE_SCHEMA_URL,
        SERVICE_NAME, PARAMS, SEPARATORS, EXTRA_STRING, EXTRA_BYTES, EXTRA_INT64, EXTRA_INT32, EXTRA_DOUBLE,
        EXTRA_FLOAT, EXTRA_BOOLEAN
    }

    /** Column tests, and for each the index of its column's cursor. */
    /** Tests, each one's cursor, and each one's zero fallback (null: none). */
    private record TestPlan(ColumnTest[] tests, int[] cursors, ZeroFallback[] fallbacks) {
        static final TestPlan NONE = new TestPlan(new ColumnTest[0], new int[0], new ZeroFallback[0]);
    }

    /**
     * How a range whose 0 stands for another column's value is read: that column's leaf and the range on it (a null
     * fails), the range with a 0 passing, and the test that finds the rows holding 0.
     */
    private record ZeroFallback(int leaf, ColumnTest.LongRange other, ColumnTest.LongRange orZero,
            ColumnTest.LongRange zero) {
    }

    /**
     * One top-level field: its kind, its leaf cursor; for params also the value leaf ({@code second}, or -1) and
     * the definition level at which an element exists.
     */
    private record Field(Kind kind, String name, int leaf, int second, int elementDefinitionLevel) {
    }
}
