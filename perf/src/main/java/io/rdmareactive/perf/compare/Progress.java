package io.rdmareactive.perf.compare;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A progress bar for one workload, counting planned tenths of a second (printed on standard error). */
final class Progress implements AutoCloseable {

    private final ProgressBar bar;
    private long base;

    Progress(final String workload, final long plannedMillis) {
        this.bar = new ProgressBarBuilder().setTaskName(workload).setInitialMax(Math.max(1, plannedMillis / 100))
            .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).setUnit(" s", 10)
            .continuousUpdate().build();
    }

    /** Starts a measurement point that is planned to take {@code plannedMillis}. */
    Point point(final String what, final long plannedMillis) {
        bar.setExtraMessage(what);
        final long start = base;
        base += plannedMillis / 100;
        return elapsedMillis -> bar.stepTo(Math.min(start + elapsedMillis / 100, base));
    }

    /** Reports progress within a point. */
    @FunctionalInterface
    interface Point {
        void at(long elapsedMillis);
    }

    @Override
    public void close() {
        bar.stepTo(bar.getMax());
        bar.setExtraMessage("done");
        bar.close();
    }
}
