package dev.cairn.faults;

import dev.cairn.s3.S3ProxyServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What a pipeline's bucket holds of its job's checkpoints, sampled at a fixed rate on a thread of its own: when, how
 * many checkpoints had completed by then, and the objects and bytes under {@code checkpoints/<job>/} (how many
 * checkpoint directories, how many shared objects), read from the S3 server's store.
 */
final class BucketSamples implements AutoCloseable {

    /**
     * One look at the bucket.
     *
     * @param atMs when
     * @param completed checkpoints completed by then
     * @param objects objects under the job's prefix
     * @param bytes their total size
     * @param checkpoints how many {@code chk-N} directories hold them
     * @param shared how many of them are shared objects (under {@code shared/})
     */
    record Sample(long atMs, int completed, long objects, long bytes, long checkpoints, long shared) {

        @Override
        public String toString() {
            return completed + " completed: " + objects + " objects (" + checkpoints + " chk, " + shared + " shared) "
                    + bytes + " B";
        }
    }

    private final ChaosPipeline pipeline;
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bucket-samples");
        thread.setDaemon(true);
        return thread;
    });

    private BucketSamples(ChaosPipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** Samples {@code pipeline}'s bucket every {@code every}, from now on. */
    static BucketSamples start(ChaosPipeline pipeline, Duration every) {
        BucketSamples samples = new BucketSamples(pipeline);
        samples.sampler.scheduleWithFixedDelay(samples::sample, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return samples;
    }

    private void sample() {
        int completed = pipeline.completed().size();
        S3ProxyServer server = pipeline.storage.s3().orElseThrow(() ->
                new IllegalStateException("the pipeline keeps no checkpoints in S3"));
        String prefix = pipeline.storage.jobPrefix(pipeline.jobId);
        S3ProxyServer.StoredObjects stored = server.objects(prefix);
        List<String> keys = server.keys(prefix);
        long checkpoints = keys.stream().map(key -> key.substring(prefix.length()))
                .filter(key -> key.startsWith("chk-")).map(key -> key.substring(0, key.indexOf('/'))).distinct()
                .count();
        long shared = keys.stream().filter(key -> key.startsWith(prefix + "shared/")).count();
        samples.add(new Sample(System.currentTimeMillis(), completed, stored.count(), stored.bytes(), checkpoints,
                shared));
    }

    /** The samples so far, in order. */
    List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** Stops sampling, waiting for a sample under way. */
    @Override
    public void close() {
        sampler.shutdown();
        try {
            sampler.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
