package dev.ourios.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Peak heap from the JVM's own pools: the sum over heap pools of each pool's peak usage since the last reset. The
 * pools peak at different moments, so the sum is an upper bound of the true simultaneous peak; it is the figure
 * the scaling suite reports, next to -Xmx, which is the bound that was actually enforced.
 */
public final class HeapPeak {
    private HeapPeak() {
    }

    public static void reset() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    public static long bytes() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
