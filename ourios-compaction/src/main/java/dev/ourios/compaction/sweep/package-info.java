/**
 * The schedule: {@link dev.ourios.compaction.sweep.SweepRunner} runs one sweep (GC over every partition in scope and
 * {@link dev.ourios.compaction.sweep.DebrisCollector} outside them, then planning, then the candidates compacted
 * oldest first), planning and compacting only the partitions of its {@link dev.ourios.compaction.sweep.Shard};
 * {@link dev.ourios.compaction.sweep.SweepReport} is what a sweep did, and
 * {@link dev.ourios.compaction.sweep.CompactionMetrics} records it. Built by
 * {@link dev.ourios.compaction.CompactionWiring}.
 */
package dev.ourios.compaction.sweep;
