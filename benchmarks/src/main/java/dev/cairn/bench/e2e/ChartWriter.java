package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.ShapeRow;
import java.io.IOException;
import java.nio.file.Path;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The bar chart of {@code e2e.png} (JFreeChart, headless): per shape, Cairn's acks/s next to the trivial app's
 * records/s (a failed Cairn row has no Cairn bar).
 */
final class ChartWriter {

    private ChartWriter() {}

    static void write(Results results, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (ShapeRow row : results.shapes()) {
            String shape = row.cairn() == null ? row.shape() + " (Cairn did not complete)" : row.shape().toString();
            data.addValue(row.cairn() == null ? null : row.cairn().perSecond(), "Cairn coordinator (acks/s)", shape);
            data.addValue(row.trivial().perSecond(), "trivial Kafka Streams app (records/s)", shape);
        }
        JFreeChart chart = ChartFactory.createBarChart("Cairn end-to-end throughput, exactly_once_v2, "
                + (results.signed() ? "signed" : "unsigned") + " sidecar records",
                "shape (jobs x subtasks)", "records per second (steady state)", data, PlotOrientation.VERTICAL,
                true, false, false);
        chart.addSubtitle(new org.jfree.chart.title.TextTitle(results.machine()));
        chart.getCategoryPlot().setBackgroundPaint(java.awt.Color.WHITE);
        chart.getCategoryPlot().setRangeGridlinePaint(java.awt.Color.GRAY);
        chart.getCategoryPlot().getDomainAxis().setMaximumCategoryLabelLines(2);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 500);
    }
}
