package dev.cairn.coordinator.http;

import dev.cairn.core.events.BoundedText;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Warnings about one REST client (a remote address, grouped as {@link ClientGroups} counts clients) at most once per
 * interval per client, so that a flood of connections cannot flood the log: each warning says how many were left out
 * since the last. Remembers at most
 * {@value #MAX_CLIENTS} clients (forgets them all past that), and quotes an address bounded by
 * {@link BoundedText#quoted}.
 */
final class ClientLog {

    static final int MAX_CLIENTS = 1_024;
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final Logger log;
    private final LongSupplier nanoClock;
    private final Map<InetAddress, Window> windows = new ConcurrentHashMap<>();

    /**
     * @param log where the warnings go
     * @param nanoClock {@link System#nanoTime} or a test's clock
     */
    ClientLog(Logger log, LongSupplier nanoClock) {
        this.log = log;
        this.nanoClock = nanoClock;
    }

    /** Warns {@code client} + {@code what}, unless this client was warned about within the interval. */
    void warn(InetAddress address, String what) {
        InetAddress client = ClientGroups.of(address);
        long now = nanoClock.getAsLong();
        if (windows.size() >= MAX_CLIENTS && !windows.containsKey(client)) {
            windows.clear();
        }
        Window window = windows.computeIfAbsent(client, key -> new Window());
        long suppressed;
        synchronized (window) {
            if (window.loggedAt != 0 && now - window.loggedAt < INTERVAL.toNanos()) {
                window.suppressed++;
                return;
            }
            suppressed = window.suppressed;
            window.suppressed = 0;
            window.loggedAt = now == 0 ? 1 : now;
        }
        log.warn("REST client {} {}{}", BoundedText.quoted(ClientGroups.describe(client)), what,
                suppressed == 0 ? "" : " (" + suppressed + " more times since the last such warning)");
    }

    /** When this client was last warned about, and how many warnings were left out since. */
    private static final class Window {
        private long loggedAt;
        private long suppressed;
    }
}
