package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import java.io.PrintWriter;

/**
 * A one-line progress bar ({@code reading cairn.journal [#####     ] 45% 450000/1000000}), redrawn at most 4 times a
 * second.
 */
final class ProgressBar implements JournalReader.Progress {

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 250_000_000L;

    private final PrintWriter out;
    private String label;
    private long lastDrawn = Long.MIN_VALUE;
    private boolean drawn;

    ProgressBar(PrintWriter out, String label) {
        this.out = out;
        this.label = label;
    }

    /** Draws {@code label} from the next redraw on. */
    ProgressBar relabel(String newLabel) {
        this.label = newLabel;
        return this;
    }

    @Override
    public void advanced(long read, long total) {
        long now = System.nanoTime();
        if (drawn && now - lastDrawn < REDRAW_NANOS && read < total) {
            return;
        }
        lastDrawn = now;
        drawn = true;
        out.print("\r" + line(label, read, total));
        out.flush();
    }

    @Override
    public void finished() {
        if (drawn) {
            out.println();
            out.flush();
        }
    }

    /** The bar for {@code read} of {@code total}. */
    static String line(String label, long read, long total) {
        int percent = total <= 0 ? 100 : (int) Math.min(100, read * 100 / total);
        int filled = percent * WIDTH / 100;
        return label + " [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + percent + "% " + read + "/"
                + total;
    }
}
