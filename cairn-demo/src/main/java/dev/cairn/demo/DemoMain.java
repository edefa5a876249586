package dev.cairn.demo;

import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.TopicInitializer;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded demo: starts a real Kafka broker inside this JVM, creates Cairn's topics, produces a job
 * spec and a trigger request to {@code cairn.requests} and reads them back through the Avro serde,
 * telling the user what happens at each step.
 */
@Command(name = "cairn-demo", mixinStandardHelpOptions = true,
        description = "Runs Cairn end to end on an in-JVM Kafka broker and exits.")
public final class DemoMain implements Callable<Integer> {

    @Option(names = "--partitions", defaultValue = "3", description = "Partitions of every Cairn topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--job", defaultValue = "demo-job", description = "The id of the demo job (default: ${DEFAULT-VALUE}).")
    String jobId;

    @Option(names = "--timeout", defaultValue = "PT60S", description = "How long to wait for Kafka at most, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    private final PrintStream out;

    DemoMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DemoMain(System.out)).execute(args));
    }

    @Override
    public Integer call() {
        out.println("Cairn demo: starting a single-node Kafka broker (KRaft) inside this JVM...");
        long start = System.nanoTime();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            out.printf("Broker up at %s after %d ms.%n", broker.bootstrapServers(), (System.nanoTime() - start) / 1_000_000);
            CairnTopics topics = CairnTopics.defaults();
            new TopicInitializer(admin, timeout).ensure(topics, partitions, (short) 1);
            out.printf("Topics ready (%d partitions each): %s%n", partitions, String.join(", ", topics.all()));

            List<RequestEnvelope> sent = List.of(new RequestEnvelope(jobSpec()), new RequestEnvelope(manualCheckpoint()));
            produce(broker.bootstrapServers(), topics.requests(), sent);
            out.printf("Produced %d events to %s, keyed by job id '%s'.%n", sent.size(), topics.requests(), jobId);

            List<RequestEnvelope> read = consume(broker.bootstrapServers(), topics.requests(), sent.size());
            out.printf("Read them back through the Avro single-object serde:%n");
            read.forEach(envelope -> out.println("  - " + EventText.describe(envelope.getEvent())));
            if (!read.equals(sent)) {
                out.println("The events read back differ from the events sent.");
                return 1;
            }
            out.println("Every event read back equals the event sent. Demo finished.");
            return 0;
        }
    }

    private JobSpec jobSpec() {
        return JobSpec.newBuilder()
                .setJobId(jobId)
                .setTasks(List.of(
                        TaskVertex.newBuilder().setTaskId("source").setParallelism(1).build(),
                        TaskVertex.newBuilder().setTaskId("map").setParallelism(2).build(),
                        TaskVertex.newBuilder().setTaskId("sink").setParallelism(1).build()))
                .setConfig(CheckpointConfig.newBuilder()
                        .setIntervalMs(2_000).setTimeoutMs(10_000).setMinPauseMs(500)
                        .setStorageBaseLocation("file:///tmp/cairn-demo/checkpoints").build())
                .setTimestampMs(System.currentTimeMillis())
                .build();
    }

    private TriggerRequest manualCheckpoint() {
        return TriggerRequest.newBuilder()
                .setJobId(jobId).setRequestId(UUID.randomUUID().toString())
                .setType(CheckpointType.CHECKPOINT).setRequester("cairn-demo")
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    private void produce(String bootstrap, String topic, List<RequestEnvelope> events) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, RequestEnvelope> producer =
                     new KafkaProducer<>(props, new StringSerializer(), CairnSerdes.requests().serializer())) {
            for (RequestEnvelope event : events) {
                producer.send(new ProducerRecord<>(topic, jobId, event));
            }
            producer.flush();
        }
    }

    private List<RequestEnvelope> consume(String bootstrap, String topic, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "cairn-demo-reader");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<RequestEnvelope> read = new ArrayList<>();
        try (KafkaConsumer<String, RequestEnvelope> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), CairnSerdes.requests().deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (read.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, RequestEnvelope> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(record.value());
                }
            }
        }
        return read;
    }
}
