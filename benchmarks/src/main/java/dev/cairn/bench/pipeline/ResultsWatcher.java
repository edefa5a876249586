package dev.cairn.bench.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a run's results topic on its own thread, read_committed from the beginning, and notes when each input
 * event's result became visible ({@link System#nanoTime()} when the poll that returned it returned; matched by
 * {@link Latencies#eventIndex}). Records without a key (the kit's resume and barrier records in a run without
 * checkpoints, whose last stage writes a kit topic) are skipped; a result that matches no event, or an event
 * seen twice, is counted as unexpected.
 */
final class ResultsWatcher implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(20);

    private final KafkaConsumer<String, String> consumer;
    private final int keys;
    private final long[] seenAt;
    private final CountDownLatch all = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile long lastSeenAt;
    private volatile long unexpected;
    private long distinct;

    ResultsWatcher(String bootstrap, String topic, int events, int keys) {
        this.keys = keys;
        this.seenAt = new long[events];
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000), new StringDeserializer(),
                new StringDeserializer());
        var partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::loop, "pipeline-bench-results-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (all.getCount() > 0) {
                ConsumerRecords<String, String> records = consumer.poll(POLL);
                long now = System.nanoTime();
                for (ConsumerRecord<String, String> record : records) {
                    if (record.key() != null) {
                        accept(record.key(), record.value(), now);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            consumer.close();
        }
    }

    private void accept(String key, String value, long now) {
        long index = Latencies.eventIndex(key, value, keys, seenAt.length);
        if (index < 0 || seenAt[(int) index] != 0) {
            unexpected++;
            return;
        }
        seenAt[(int) index] = now;
        lastSeenAt = now;
        if (++distinct == seenAt.length) {
            all.countDown();
        }
    }

    /**
     * Waits until every event's result was seen; answers the {@link System#nanoTime()} the last one was seen.
     *
     * @param check called about every 100 ms while waiting; throws to give up (a task that failed)
     * @throws IllegalStateException when the reader failed or {@code timeout} passed first
     */
    long awaitAll(Duration timeout, Runnable check) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!all.await(100, TimeUnit.MILLISECONDS)) {
            if (failure.get() != null) {
                throw new IllegalStateException("the results reader failed: " + failure.get(), failure.get());
            }
            check.run();
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not every result was visible within " + timeout + ": "
                        + seenCount() + " of " + seenAt.length);
            }
        }
        return lastSeenAt;
    }

    /** When event {@code i}'s result was seen ({@link System#nanoTime()}), 0 when not (yet). */
    long seenAt(int i) {
        return seenAt[i];
    }

    /** Results that matched no event, or an event already seen (a duplicate). */
    long unexpected() {
        return unexpected;
    }

    private long seenCount() {
        long count = 0;
        for (long t : seenAt) {
            count += t != 0 ? 1 : 0;
        }
        return count;
    }

    @Override
    public void close() throws InterruptedException {
        all.countDown();
        consumer.wakeup();
        thread.join(10_000);
    }
}
