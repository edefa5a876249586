package dev.cairn.faults;

import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Requests produced to {@code cairn.requests} as {@code cairn status} produces them: keyed by job id and signed with
 * the requests key derived from the run's master key. This build's schemas write them, so they are for this build's
 * coordinator (an older one need not read a newer schema; its requests go through its own REST API).
 */
final class SignedRequests implements AutoCloseable {

    private final CairnTopics topics;
    private final KafkaProducer<String, RequestEnvelope> producer;

    SignedRequests(String bootstrapServers, CairnTopics topics, SidecarMasterKey masterKey) {
        this.topics = topics;
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.requests().serializer(), masterKey.key().requestsKey()));
    }

    /** Sets the status of {@code jobId}: SUSPENDED stops its periodic triggering and aborts what is pending. */
    void changeStatus(String jobId, JobStatus status) {
        send(jobId, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(jobId).setStatus(status)
                .setTimestampMs(System.currentTimeMillis()).build()));
    }

    /** Produces {@code request} keyed by {@code jobId} and waits until Kafka has it. */
    void send(String jobId, RequestEnvelope request) {
        try {
            producer.send(new ProducerRecord<>(topics.requests(), jobId, request)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot produce to " + topics.requests(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
