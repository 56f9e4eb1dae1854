package io.rdmareactive.perf.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's plots, drawn with XChart and saved as PNG files next to report.html. */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 480;

    private Charts() {
    }

    /** @return the files written, each with its caption, in the order the report shows them */
    static Map<String, String> draw(final Results results, final Path folder) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final Map<String, String> files = new LinkedHashMap<>();
        for (final String mode : List.of("closed-loop", "fixed-rate")) {
            for (final int size : results.latency.stream().filter(l -> l.mode().equals(mode))
                .map(Results.Latency::size).distinct().toList()) {
                final XYChart chart = chart("Round-trip time, " + Report.bytes(size) + ", " + mode
                    + (mode.equals("fixed-rate") ? " (corrected for coordinated omission)" : ""),
                    "percentile (log scale of 1/(1-p): 90 = 10, 99 = 100, 99.9 = 1000)", "round trip (us)");
                chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
                for (final Results.Latency latency : results.latency) {
                    if (latency.size() != size || !latency.mode().equals(mode) || latency.roundTrips() == 0) {
                        continue;
                    }
                    addCurve(chart, latency.transport(), latency.curve());
                }
                save(chart, folder, "latency-" + mode + "-" + size + ".png", files,
                    "Round-trip percentiles at " + Report.bytes(size) + " (" + mode + ")");
            }
        }
        for (final int size : results.requestResponse.stream().map(Results.RequestResponse::size).distinct()
            .toList()) {
            final XYChart chart = chart("Request-response round-trip time, " + Report.bytes(size),
                "percentile (log scale of 1/(1-p): 90 = 10, 99 = 100, 99.9 = 1000)", "round trip (us)");
            chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
            for (final Results.RequestResponse rr : results.requestResponse) {
                if (rr.size() == size && rr.calls() > 0) {
                    addCurve(chart, rr.transport() + ", " + rr.inFlight() + " in flight", rr.curve());
                }
            }
            save(chart, folder, "request-response-" + size + ".png", files,
                "Request-response round-trip percentiles at " + Report.bytes(size));
        }
        for (final boolean bytes : new boolean[] {false, true}) {
            final XYChart chart = chart(bytes ? "Throughput in bytes/s against message size (one stream)"
                : "Throughput in messages/s against message size (one stream)", "message size (bytes)",
                bytes ? "MiB/s" : "messages/s");
            chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
            for (final String transport : results.transports.keySet()) {
                final List<Double> x = new ArrayList<>();
                final List<Double> y = new ArrayList<>();
                for (final Results.Throughput throughput : results.throughput) {
                    if (throughput.transport().equals(transport) && throughput.streams() == 1
                        && throughput.messagesPerSecond() > 0) {
                        x.add((double) throughput.size());
                        y.add(bytes ? throughput.bytesPerSecond() / (1 << 20) : throughput.messagesPerSecond());
                    }
                }
                if (!x.isEmpty()) {
                    chart.addSeries(transport, x, y);
                }
            }
            save(chart, folder, bytes ? "throughput-bytes.png" : "throughput-messages.png", files,
                bytes ? "Throughput, bytes per second" : "Throughput, messages per second");
        }
        for (final boolean resident : new boolean[] {true, false}) {
            final XYChart chart = chart((resident ? "Resident memory" : "Heap in use")
                + " over time, producer against a throttled consumer", "seconds", "MiB");
            for (final Results.Backpressure run : results.backpressure) {
                final List<Double> x = new ArrayList<>();
                final List<Double> y = new ArrayList<>();
                for (final Results.MemorySample sample : run.memory()) {
                    x.add(sample.seconds());
                    y.add((resident ? sample.rssBytes() : sample.heapUsedBytes()) / (double) (1 << 20));
                }
                if (!x.isEmpty()) {
                    chart.addSeries(run.transport(), x, y).setMarker(SeriesMarkers.NONE);
                }
            }
            save(chart, folder, resident ? "backpressure-rss.png" : "backpressure-heap.png", files,
                resident ? "Resident memory of the whole JVM under backpressure (it includes what transports measured "
                    + "earlier still map: Aeron keeps a closed publication's log for its linger time)"
                    : "Heap in use under backpressure (whole JVM)");
        }
        incast(results, folder, files);
        allToAll(results, folder, files);
        allReduce(results, folder, files);
        return files;
    }

    /** Each incast sender's share of the aggregate, one series per transport and sender count. */
    private static void incast(final Results results, final Path folder, final Map<String, String> files)
        throws IOException {
        final XYChart chart = chart("Incast: each sender's share of the receiver's messages (fair = 1/N)",
            "sender", "share of the aggregate (%)");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
            .setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        for (final Results.Incast incast : results.incast) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (int i = 0; i < incast.shares().size(); i++) {
                x.add((double) i);
                y.add(incast.shares().get(i) * 100);
            }
            if (incast.messagesPerSecond() > 0) {
                chart.addSeries(incast.transport() + ", " + incast.senders() + " senders", x, y);
            }
        }
        save(chart, folder, "incast-shares.png", files, "Incast: each sender's share of the aggregate");
    }

    /** All-to-all aggregate throughput against message size, one series per transport. */
    private static void allToAll(final Results results, final Path folder, final Map<String, String> files)
        throws IOException {
        final XYChart chart = chart("All-to-all: aggregate throughput against message size", "message size (bytes)",
            "MB/s (all pairs)");
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
        for (final String transport : results.transports.keySet()) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final Results.AllToAll point : results.allToAll) {
                if (point.transport().equals(transport) && point.bytesPerSecond() > 0) {
                    x.add((double) point.size());
                    y.add(point.bytesPerSecond() / 1e6);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(transport, x, y);
            }
        }
        save(chart, folder, "all-to-all-throughput.png", files, "All-to-all: aggregate MB/s against message size");
    }

    /** The all-reduce's busbw against vector size, one series per transport; a row with a wrong element is left out. */
    private static void allReduce(final Results results, final Path folder, final Map<String, String> files)
        throws IOException {
        final XYChart chart = chart("Ring all-reduce: busbw against vector size", "vector size (bytes)",
            "busbw (GB/s)");
        // small vectors move thousandths of a GB/s: powers of ten rather than "0"
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true).setYAxisDecimalPattern("0.##E0");
        for (final String transport : results.transports.keySet()) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final Results.AllReduce row : results.allReduce) {
                if (row.transport().equals(transport) && row.wrong() == 0 && row.busbwGBs() > 0) {
                    x.add((double) row.bytes());
                    y.add(row.busbwGBs());
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(transport, x, y);
            }
        }
        save(chart, folder, "all-reduce-busbw.png", files, "Ring all-reduce: busbw (GB/s) against vector size");
    }

    /** Adds a percentile curve, plotted against 1/(1-p) so that the tail spreads out. */
    private static void addCurve(final XYChart chart, final String name, final List<double[]> curve) {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final double[] point : curve) {
            if (point[0] < 100 && point[1] > 0) {
                x.add(1 / (1 - point[0] / 100));
                y.add(point[1]);
            }
        }
        if (!x.isEmpty()) {
            chart.addSeries(name, x, y);
        }
    }

    private static XYChart chart(final String title, final String x, final String y) {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x)
            .yAxisTitle(y).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line).setMarkerSize(6)
            .setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        return chart;
    }

    private static void save(final XYChart chart, final Path folder, final String name,
                             final Map<String, String> files, final String caption) throws IOException {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        BitmapEncoder.saveBitmap(chart, folder.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        files.put(name, caption);
    }
}
