package dev.cairn.demo;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures what a storage location holds at a fixed rate, on a thread of its own, while the demo's job runs: how
 * many samples were taken and the most objects, bytes and checkpoint directories any of them found (not necessarily
 * in the same sample). A sample that fails (the storage busy
 * or gone) is skipped.
 */
final class StorageSamples implements AutoCloseable {

    private final DemoStorage storage;
    private final String location;
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong maxObjects = new AtomicLong();
    private final AtomicLong maxBytes = new AtomicLong();
    private final AtomicLong maxCheckpoints = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cairn-demo-storage-samples");
        thread.setDaemon(true);
        return thread;
    });

    private StorageSamples(DemoStorage storage, String location) {
        this.storage = storage;
        this.location = location;
    }

    /** Samples {@code location} of {@code storage} every {@code every} from now on. */
    static StorageSamples start(DemoStorage storage, String location, Duration every) {
        StorageSamples samples = new StorageSamples(storage, location);
        samples.sampler.scheduleWithFixedDelay(samples::sample, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return samples;
    }

    private void sample() {
        try {
            DemoStorage.Stored stored = storage.measure(location);
            maxObjects.accumulateAndGet(stored.objects(), Math::max);
            maxBytes.accumulateAndGet(stored.bytes(), Math::max);
            maxCheckpoints.accumulateAndGet(stored.checkpoints().size(), Math::max);
            samples.incrementAndGet();
        } catch (RuntimeException e) {
            // the next sample tries again
        }
    }

    /** How many samples were taken. */
    long samples() {
        return samples.get();
    }

    /** The most objects a sample found. */
    long maxObjects() {
        return maxObjects.get();
    }

    /** The most bytes a sample found. */
    long maxBytes() {
        return maxBytes.get();
    }

    /** The most checkpoint directories ({@code chk-N}) a sample found. */
    long maxCheckpoints() {
        return maxCheckpoints.get();
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
