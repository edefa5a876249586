package dev.cairn.bench.pipeline;

import dev.cairn.pipeline.InputEvents;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces a run's input, {@link InputEvents}' events (event {@code i}: key {@code k<i % keys>}, value {@code i}),
 * on its own thread, with {@link InputEvents#produce}'s producer settings (idempotent, {@code acks=all},
 * {@code linger.ms=5}): as fast as the producer takes them (rate 0) or event {@code i} at {@code i / rate} seconds
 * after the start. Notes when it handed each event to the producer ({@link System#nanoTime()}).
 */
final class InputFeeder implements AutoCloseable {

    private final long[] producedAt;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stop;

    private InputFeeder(String bootstrap, String topic, int events, int keys, int rate) {
        producedAt = new long[events];
        thread = new Thread(() -> feed(bootstrap, topic, keys, rate), "pipeline-bench-input-" + topic);
        thread.setDaemon(true);
    }

    /** Starts producing {@code events} events over {@code keys} keys to {@code topic}; rate 0: at once. */
    static InputFeeder start(String bootstrap, String topic, int events, int keys, int rate) {
        InputFeeder feeder = new InputFeeder(bootstrap, topic, events, keys, rate);
        feeder.thread.start();
        return feeder;
    }

    private void feed(String bootstrap, String topic, int keys, int rate) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer())) {
            long start = System.nanoTime();
            for (int i = 0; i < producedAt.length && !stop && failure.get() == null; i++) {
                if (rate > 0) {
                    long due = start + (long) (i * 1e9 / rate);
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                }
                producedAt[i] = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, InputEvents.keyOf(i, keys), Integer.toString(i)),
                        (metadata, error) -> {
                            if (error != null) {
                                failure.compareAndSet(null, error);
                            }
                        });
            }
            producer.flush();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** When event {@code i} was handed to the producer; valid once the feeder {@link #finished}. */
    long producedAt(int i) {
        return producedAt[i];
    }

    /** Throws when a send failed. */
    void check() {
        if (failure.get() != null) {
            throw new IllegalStateException("cannot produce the input: " + failure.get(), failure.get());
        }
    }

    /** Waits until every event was sent and acknowledged. */
    void finished() throws InterruptedException {
        thread.join();
        check();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(30_000);
    }
}
