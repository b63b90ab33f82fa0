/**
 * Which partitions to compact, and how: {@link dev.ourios.compaction.plan.CompactionPolicy} (pure, no I/O) turns a
 * partition's live files into a {@link dev.ourios.compaction.plan.PlanDecision}, with a
 * {@link dev.ourios.compaction.plan.CompactionPlan} when the partition is a candidate;
 * {@link dev.ourios.compaction.plan.CompactionOptions} are a sweep's knobs and
 * {@link dev.ourios.compaction.plan.RowGroupSizing} the compacted row-group threshold. Uses no other compaction
 * package.
 */
package dev.ourios.compaction.plan;
