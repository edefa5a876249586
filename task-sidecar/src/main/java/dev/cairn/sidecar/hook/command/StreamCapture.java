package dev.cairn.sidecar.hook.command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * What a process wrote to one of its output streams, read to the end so the process never blocks on a full
 * pipe, but kept only up to a bound: the first {@code limit} bytes (a result on stdout) or the last
 * {@code limit} bytes (a diagnostic tail of stderr). Thread-safe: the draining thread appends while others
 * may read what arrived so far.
 */
final class StreamCapture {

    private final int limit;
    private final boolean keepTail;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long total;

    private StreamCapture(int limit, boolean keepTail) {
        this.limit = limit;
        this.keepTail = keepTail;
    }

    /** Keeps the first {@code limit} bytes. */
    static StreamCapture head(int limit) {
        return new StreamCapture(limit, false);
    }

    /** Keeps the last {@code limit} bytes. */
    static StreamCapture tail(int limit) {
        return new StreamCapture(limit, true);
    }

    /** Reads the stream to its end (or until it is closed under us, which ends the read quietly). */
    void drain(InputStream in) {
        byte[] chunk = new byte[8192];
        try (in) {
            int read;
            while ((read = in.read(chunk)) != -1) {
                append(chunk, read);
            }
        } catch (IOException closedOrBroken) {
            // the process was destroyed or its pipe closed: what arrived so far is all there is
        }
    }

    synchronized void append(byte[] bytes, int length) {
        total += length;
        if (!keepTail) {
            kept.write(bytes, 0, Math.min(length, Math.max(0, limit - kept.size())));
            return;
        }
        kept.write(bytes, 0, length);
        if (kept.size() > 2 * limit) {
            byte[] all = kept.toByteArray();
            kept.reset();
            kept.write(all, all.length - limit, limit);
        }
    }

    /** True when the stream carried more than the bound. */
    synchronized boolean overflowed() {
        return total > limit;
    }

    /** The kept bytes as UTF-8 text. */
    synchronized String text() {
        byte[] all = kept.toByteArray();
        byte[] bounded = all.length <= limit ? all : Arrays.copyOfRange(all, all.length - limit, all.length);
        return new String(bounded, StandardCharsets.UTF_8);
    }

    /**
     * At most the last {@code maxLines} lines of the kept text, with a {@code ...} line first when earlier
     * output was left out; {@code (no output)} when there was none.
     */
    String lastLines(int maxLines) {
        String text = text().strip();
        if (text.isEmpty()) {
            return "(no output)";
        }
        List<String> lines = text.lines().toList();
        boolean cut = overflowed() || lines.size() > maxLines;
        List<String> kept = lines.subList(Math.max(0, lines.size() - maxLines), lines.size());
        return (cut ? "...\n" : "") + String.join("\n", kept);
    }
}
