package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.align.Alignment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's kit-topic output over a producer double whose sends stay unconfirmed until it is flushed, and whose
 * oldest unconfirmed send can be made to expire then, as Kafka expires a batch ({@code delivery.timeout.ms}) while it
 * still delivers a later batch to the same partition.
 */
class KitTopicOutputTest {

    private static final String TOPIC = "counts";
    private static final byte[] KEY = "key-1".getBytes(StandardCharsets.UTF_8);

    private ExpiringProducer producer;
    private KitTopicOutput output;

    @BeforeEach
    void outputOverTwoPartitions() {
        producer = new ExpiringProducer();
        output = new KitTopicOutput(TOPIC, 0, () -> producer);
    }

    @Test
    void shouldAnswerTheBarrierOnlyOnceKafkaConfirmedEveryRecordBeforeIt() {
        // given a started output with three results sent and none confirmed yet
        output.start(-1, Optional.empty(), 5, false);
        for (int i = 0; i < 3; i++) {
            output.emit(KEY, ("count-" + i).getBytes(StandardCharsets.UTF_8));
        }

        // when
        TaskOutput.Sealed sealed = output.barrier(7, Alignment.EXACTLY_ONCE);

        // then every record (two resumes, three results, two barriers) was confirmed before the barrier answered
        assertThat(sealed).isSameAs(TaskOutput.Sealed.NOTHING);
        assertThat(producer.history()).hasSize(7);
        assertThat(producer.completeNext()).as("a send left unconfirmed").isFalse();
        assertThat(output.failure()).isEmpty();
    }

    @Test
    void shouldRefuseTheBarrierWhenARecordBeforeItExpiredThoughTheBarrierWasDelivered() {
        // given a result whose batch will expire, while the barrier after it is delivered
        output.start(-1, Optional.empty(), 5, false);
        output.emit(KEY, "count-1".getBytes(StandardCharsets.UTF_8));
        producer.expireOldestAtNextFlush();

        // when / then the barrier answers nothing the task could acknowledge
        assertThatThrownBy(() -> output.barrier(7, Alignment.EXACTLY_ONCE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost a record before barrier 7").hasMessageContaining("Expiring 1 record");
        assertThat(output.failure()).get().isInstanceOf(TimeoutException.class);
    }

    @Test
    void shouldFailTheStartWhenAResumeRecordIsNotDelivered() {
        producer.expireOldestAtNextFlush();

        assertThatThrownBy(() -> output.start(3, Optional.empty(), 9, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost a record before the resume records of generation 9");
    }

    /** A producer double over a 2-partition topic whose sends complete only when flushed. */
    private static final class ExpiringProducer extends MockProducer<byte[], byte[]> {

        private boolean expireOldest;

        ExpiringProducer() {
            super(twoPartitions(), false, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        void expireOldestAtNextFlush() {
            expireOldest = true;
        }

        @Override
        public synchronized void flush() {
            if (expireOldest) {
                expireOldest = false;
                errorNext(new TimeoutException("Expiring 1 record(s) for " + TOPIC + "-0: 3000 ms has passed since "
                        + "batch creation"));
            }
            super.flush();
        }

        private static Cluster twoPartitions() {
            Node node = new Node(1, "localhost", 9092);
            Node[] replicas = {node};
            return new Cluster("kit", List.of(node), List.of(new PartitionInfo(TOPIC, 0, node, replicas, replicas),
                    new PartitionInfo(TOPIC, 1, node, replicas, replicas)), Set.of(), Set.of());
        }
    }
}
