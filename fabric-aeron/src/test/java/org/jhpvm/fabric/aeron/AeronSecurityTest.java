package org.jhpvm.fabric.aeron;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import org.agrona.concurrent.UnsafeBuffer;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.Nic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only members of the job can talk to the job: what anything else sends is dropped and counted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AeronSecurityTest {
    private static final FabricConfig CONFIG = FabricConfig.builder(2).frameBytes(4096).build();

    @Test
    void framesFromOutsideTheJobShouldBeDroppedAndCountedAndMembersStillHeard() throws Exception {
        try (AeronCluster cluster = AeronCluster.start(2, 1, false, CONFIG);
             Aeron rogue = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.rank(0).environment()
                 .aeronDir()))) {
            final ExclusivePublication p = rogue.addExclusivePublication("aeron:ipc", AeronFabric.DATA_STREAM_BASE + 1);
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!p.isConnected() && System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            assertTrue(p.isConnected(), "the rogue publication did not connect");
            final UnsafeBuffer b = new UnsafeBuffer(new byte[FrameDescriptor.FABRIC_HEADER_BYTES + 32 + 8]);
            // A hello signed with another secret, then a well-formed frame claiming to come from NIC 0.
            final Hello forged = new Hello("not-the-job-secret-at-all".getBytes(StandardCharsets.UTF_8),
                cluster.rank(1).environment().jobId(), 2, 2, 1);
            final UnsafeBuffer h = new UnsafeBuffer(new byte[Hello.BYTES]);
            forged.write(h, Hello.KIND_DATA, 0, 1, p.sessionId());
            while (p.offer(h, 0, Hello.BYTES) < 0) {
                Thread.onSpinWait();
            }
            b.putInt(FrameDescriptor.SOURCE_OFFSET, 0, java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putInt(FrameDescriptor.DESTINATION_OFFSET, 1, java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putInt(FrameDescriptor.LENGTH_OFFSET, 8, java.nio.ByteOrder.LITTLE_ENDIAN);
            while (p.offer(b, 0, b.capacity()) < 0) {
                Thread.onSpinWait();
            }
            final Nic victim = cluster.nic(1);
            // Until both forged messages have reached the victim and been refused (Aeron delivers them when its
            // client's conductor has seen the rogue's image: later on a busy machine), up to 30 s; then 300 ms more.
            final long start = System.nanoTime();
            while (cluster.rank(1).rejectedMessages() < 2 && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30)) {
                assertNull(victim.poll(), "a frame from outside the job was delivered");
            }
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            while (System.nanoTime() - deadline < 0) {
                assertNull(victim.poll(), "a frame from outside the job was delivered");
            }
            assertEquals(2, cluster.rank(1).rejectedMessages(), "dropped messages not counted");
            assertEquals(2, victim.counters().framesDropped());
            // The members still talk.
            final Frame f = cluster.nic(0).acquire().setDestination(1).setLength(8).putHeaderLong(0, 42);
            cluster.nic(0).send(f);
            final Frame in = victim.receive(TimeUnit.SECONDS.toNanos(5));
            assertNotNull(in);
            assertEquals(42, in.getHeaderLong(0));
            victim.release(in);
        }
    }

    @Test
    void aProcessWithAnotherSecretShouldNotJoin() {
        final var good = AeronCluster.environments(2, 1, false, "0123456789abcdef-secret", 1_500);
        final JobEnvironment e0 = good.get(0);
        final JobEnvironment e1 = good.get(1);
        final JobEnvironment bad = new JobEnvironment(1, 2, 1, e1.hosts(), e1.basePort(),
            "another-secret-0123456789".getBytes(StandardCharsets.UTF_8), e1.jobId(), false, e1.aeronDir(), 1_500,
            1_500);
        final JobEnvironment shortJoin = new JobEnvironment(0, 2, 1, e0.hosts(), e0.basePort(), e0.secret(),
            e0.jobId(), false, e0.aeronDir(), 1_500, 1_500);
        final Thread intruder = Thread.ofPlatform().start(() -> {
            try {
                AeronFabric.join(bad, CONFIG).close();
            } catch (RuntimeException expected) {
                // it cannot join either
            }
        });
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> AeronFabric.join(shortJoin, CONFIG));
        assertTrue(e.getMessage().contains("join"), e.getMessage());
        assertTrue(e.getMessage().contains("process(es) 1"), e.getMessage());
        try {
            intruder.join(10_000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theEnvironmentShouldBeReadFromOurOwnSlurmsAndOpenMpisVariables() {
        assertTrue(JobEnvironment.from(java.util.Map.of()).isEmpty());
        assertTrue(JobEnvironment.from(java.util.Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2")).isEmpty(),
            "srun without a secret is not a jhpvm job");
        final var slurm = JobEnvironment.from(java.util.Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "4",
            "SLURM_JOB_ID", "77", "JHPVM_SECRET", "0123456789abcdef", "JHPVM_HOSTS", "a:2,b:2")).orElseThrow();
        assertEquals(1, slurm.rank());
        assertEquals(4, slurm.processes());
        assertEquals("77.0", slurm.jobId());
        assertEquals(java.util.List.of("a", "a", "b", "b"), slurm.hosts());
        assertEquals(JobEnvironment.DEFAULT_PORT + 1, slurm.port(1));
        assertEquals(JobEnvironment.DEFAULT_PORT, slurm.port(2));
        final var ompi = JobEnvironment.from(java.util.Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE",
            "3", "JHPVM_SECRET", "0123456789abcdef")).orElseThrow();
        assertEquals(2, ompi.rank());
        final IllegalArgumentException noSecret = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(java.util.Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "2")));
        assertTrue(noSecret.getMessage().startsWith("JHPVM_SECRET is not set"), noSecret.getMessage());
        final IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(java.util.Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "2", "JHPVM_SECRET",
                "0123456789abcdef", "JHPVM_HOSTS", "x:3")));
        assertTrue(mismatch.getMessage().contains("job size mismatch"), mismatch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JobEnvironment.from(java.util.Map.of("JHPVM_RANK", "2",
            "JHPVM_PROCESSES", "2", "JHPVM_SECRET", "0123456789abcdef")));
    }
}
