package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.Rate;
import dev.cairn.bench.e2e.Workload.Job;
import dev.cairn.bench.e2e.Workload.Vertex;
import dev.cairn.events.AckEnvelope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The reference: a trivial Kafka Streams application with exactly the coordinator's Kafka Streams settings
 * ({@code CoordinatorApp.streamsProperties} of the coordinator's configuration: exactly_once_v2, the same commit
 * interval and {@code poll.ms}, producer linger, fetch waits), reading a topic with the same partition count as
 * {@code cairn.acks}. Per record it does one get and one put on an in-memory key-value store (no cache, changelog
 * on, like the coordinator's stores) under the record's key, and forwards the record unchanged to an output topic.
 * It does not decode the record. It is fed the same acks (same keys, same serialized size, signed alike in the
 * producer's serializer when the run is signed; it checks no signature) by a producer with the ack producer's
 * settings, and its output is read with {@code read_committed}.
 */
final class TrivialApp implements AutoCloseable {

    /** The input topic, fed by {@link #measure} and {@link #latency}. */
    static final String INPUT = "bench.trivial.in";

    private static final String STORE = "last-by-key";

    private final String input;
    private final KafkaStreams streams;
    private final KafkaProducer<String, AckEnvelope> producer;
    private final Follower<byte[]> output;
    private final Workload workload;
    private final Duration timeout;
    private final Path stateDir;

    private TrivialApp(String input, KafkaStreams streams, KafkaProducer<String, AckEnvelope> producer,
            Follower<byte[]> output, Workload workload, Duration timeout, Path stateDir) {
        this.input = input;
        this.streams = streams;
        this.producer = producer;
        this.output = output;
        this.workload = workload;
        this.timeout = timeout;
        this.stateDir = stateDir;
    }

    /** Creates its topics, starts it with the coordinator's {@code streamsProperties} and waits until it runs. */
    static TrivialApp start(String bootstrap, Properties coordinatorStreamsProperties, int partitions,
            Workload workload, int lingerMs, Duration timeout) throws InterruptedException {
        String input = INPUT;
        String out = "bench.trivial.out";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(input, partitions, (short) 1), new NewTopic(out, partitions,
                    (short) 1))).all().get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot create the trivial app's topics", e);
        }
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("cairn-e2e-trivial");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.putAll(coordinatorStreamsProperties);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-trivial-" + UUID.randomUUID());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        KafkaStreams streams = new KafkaStreams(topology(input, out), props);
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.start();
        if (!running.await(120, TimeUnit.SECONDS)) {
            streams.close(Duration.ofSeconds(10));
            throw new IllegalStateException("the trivial app did not reach RUNNING within 120 s");
        }
        KafkaProducer<String, AckEnvelope> producer = new KafkaProducer<>(
                CairnDriver.producerSettings(bootstrap, lingerMs), new StringSerializer(),
                workload.keys().ackSerializer());
        return new TrivialApp(input, streams, producer,
                new Follower<>(bootstrap, out, new ByteArrayDeserializer()), workload, timeout, stateDir);
    }

    private static Topology topology(String input, String out) {
        Topology topology = new Topology();
        topology.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), input);
        topology.addProcessor("get-put-forward", GetPutForward::new, "in");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.ByteArray(),
                Serdes.ByteArray()), "get-put-forward");
        topology.addSink("out", out, new ByteArraySerializer(), new ByteArraySerializer(), "get-put-forward");
        return topology;
    }

    /** One get and one put under the record's key, then the record forwarded unchanged. */
    private static final class GetPutForward implements Processor<byte[], byte[], byte[], byte[]> {
        private ProcessorContext<byte[], byte[]> context;
        private KeyValueStore<byte[], byte[]> store;
        /** Keys seen before; keeps the get from being optimised away. */
        private long known;

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            if (store.get(record.key()) != null) {
                known++;
            }
            store.put(record.key(), record.value());
            context.forward(record);
        }
    }

    /**
     * {@code rounds} rounds of the acks of one checkpoint of every job (same keys and sizes as the coordinator's
     * rounds): produce them all, flush, wait until as many records are read from the output. Runs
     * {@code atSteadyState} just before the first round the rate counts.
     */
    Rate measure(List<Job> jobs, int rounds, int steadyAfterRounds, Runnable atSteadyState) {
        List<Double> roundMs = new ArrayList<>();
        long perRound = jobs.stream().mapToLong(Job::subtasks).sum();
        int steadyAfter = ThroughputRun.steadyState(rounds, steadyAfterRounds);
        for (int round = 1; round <= rounds; round++) {
            if (round == steadyAfter + 1) {
                atSteadyState.run();
            }
            long first = System.nanoTime();
            for (int i = 0; i < jobs.stream().mapToInt(Job::subtasks).max().orElse(0); i++) {
                for (Job job : jobs) {
                    if (i < job.subtasks()) {
                        Vertex vertex = job.vertices().get(i / Workload.MAX_VERTEX_PARALLELISM);
                        producer.send(new ProducerRecord<>(input, job.id(),
                                workload.ack(job, vertex, i % Workload.MAX_VERTEX_PARALLELISM, round)));
                    }
                }
            }
            producer.flush();
            awaitOutputs(perRound);
            roundMs.add((System.nanoTime() - first) / 1e6);
        }
        return new Rate(perRound, roundMs, steadyAfter);
    }

    /** Per sample: one ack produced and flushed -> its output record read; ms per sample after the warm-up. */
    List<Double> latency(Job job, int warmup, int samples) {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < warmup + samples; i++) {
            producer.send(new ProducerRecord<>(input, job.id(), workload.ack(job, job.vertices().get(0), 0, i)));
            producer.flush();
            long sent = System.nanoTime();
            awaitOutputs(1);
            if (i >= warmup) {
                ms.add((System.nanoTime() - sent) / 1e6);
            }
        }
        return ms;
    }

    private void awaitOutputs(long count) {
        long[] read = {0};
        output.pollUntil(record -> read[0]++, () -> read[0] >= count, timeout, () -> { }, "trivial app output");
    }

    @Override
    public void close() {
        producer.close();
        output.close();
        streams.close(Duration.ofSeconds(30));
        CoordinatorInstance.deleteRecursively(stateDir);
    }
}
