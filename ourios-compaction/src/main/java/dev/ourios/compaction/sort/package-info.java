/**
 * The rows of one compaction, from its input files to sorted order, within the plan's sort budget.
 *
 * <p>{@link dev.ourios.compaction.sort.PrefetchedInputs} reads the inputs on reader threads, each encoding the
 * re-projected rows with references into its own {@code ReaderStringTable}; the compacting thread copies them into
 * the {@code RowBuffer} of the {@link dev.ourios.compaction.sort.ExternalSorter} through each reader's
 * {@code ReaderTableMirror}; the sorter spills sorted runs to scratch and merges them, and
 * {@link dev.ourios.compaction.sort.ResidencyGauge} measures what it holds. The reader tables, their mirrors and the
 * run buffer share ids and generations, which is why they are one package and stay package-private.
 */
package dev.ourios.compaction.sort;
