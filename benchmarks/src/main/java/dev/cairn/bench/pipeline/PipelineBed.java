package dev.cairn.bench.pipeline;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.bench.e2e.CoordinatorInstance;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What every run of the pipeline benchmark shares: one in-JVM KRaft broker, one real coordinator in the default
 * secured mode (a generated sidecar master key: it verifies every TaskStarted, ack and decline against its job's
 * key, and every request against the requests key), a producer of signed requests, a follower of the journal and
 * the directory checkpoints go to.
 */
final class PipelineBed implements AutoCloseable {

    /** The longest wait for a job spec, a first checkpoint or the journal's end. */
    static final Duration WAIT = Duration.ofSeconds(120);

    private final EmbeddedKafkaBroker broker;
    private final CoordinatorInstance coordinator;
    private final SigningKey master;
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final JournalCounts journal;
    private final Path checkpointDir;

    private PipelineBed(EmbeddedKafkaBroker broker, CoordinatorInstance coordinator, SigningKey master,
            Path checkpointDir) {
        this.broker = broker;
        this.coordinator = coordinator;
        this.master = master;
        this.checkpointDir = checkpointDir;
        this.requests = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.requests().serializer(), master.requestsKey()));
        this.journal = new JournalCounts(broker.bootstrapServers(), topics().journal());
    }

    /** Starts the broker and the coordinator (commit interval 20 ms, as the end-to-end benchmark's). */
    static PipelineBed start() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        CoordinatorInstance coordinator = null;
        try {
            SigningKey master = SigningKey.generate();
            coordinator = CoordinatorInstance.start(broker.bootstrapServers(), CairnTopics.DEFAULT_PREFIX, 20,
                    Map.of(), master);
            return new PipelineBed(broker, coordinator, master, Files.createTempDirectory("cairn-pipeline-bench"));
        } catch (IOException e) {
            close(coordinator, broker);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            close(coordinator, broker);
            throw e;
        }
    }

    String bootstrap() {
        return broker.bootstrapServers();
    }

    CairnTopics topics() {
        return coordinator.config().topics();
    }

    SigningKey jobKey(String jobId) {
        return master.jobKey(jobId);
    }

    JournalCounts journal() {
        return journal;
    }

    Path checkpointDir() {
        return checkpointDir;
    }

    /** Sends a signed request and waits until the broker has it. */
    void send(ProducerRecord<String, RequestEnvelope> request) {
        try {
            requests.send(request).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending a request", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot send a request: " + e, e);
        }
    }

    @Override
    public void close() {
        requests.close();
        journal.close();
        close(coordinator, broker);
        CoordinatorInstance.deleteRecursively(checkpointDir);
    }

    private static void close(CoordinatorInstance coordinator, EmbeddedKafkaBroker broker) {
        if (coordinator != null) {
            coordinator.close();
        }
        broker.close();
    }
}
