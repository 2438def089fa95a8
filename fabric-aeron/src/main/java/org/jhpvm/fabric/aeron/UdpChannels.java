package org.jhpvm.fabric.aeron;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Aeron URI parameters of a job's UDP channels (between hosts), chosen for bandwidth:
 * <ul>
 *   <li><b>Datagrams as large as the link carries whole</b> ({@code mtu}): the MTU of the interface that holds this
 *   process's address, less 48 bytes of IP and UDP headers (IPv6's, the larger), rounded down to Aeron's 32-byte
 *   alignment: 1,440 bytes on a 1,500-byte Ethernet, 8,928 on a 9,000-byte jumbo-frame network (what clusters run),
 *   65,472 on loopback; Aeron's 1,408 where the interface cannot be found. Aeron packs a publication's messages into
 *   datagrams of up to its MTU, so jumbo frames take 6 times fewer system calls per byte than 1,408-byte datagrams.
 *   Larger datagrams than the link's packets would be split by the kernel (IP fragmentation) and a lost fragment
 *   costs its whole datagram: over a 1,500-byte link that lost 1% of its packets, 1 MiB puts moved 102 MB/s with
 *   1,408-byte datagrams, 71 MB/s with 8,192-byte ones and 0.2 MB/s with 65,504-byte ones (losslessly the last were
 *   the fastest, 440-610 MB/s against 200-240). {@code JHPVM_UDP_MTU} sets the size by hand (for a path whose MTU is
 *   smaller than this host's interface, or a clean link where fragments are never lost).</li>
 *   <li><b>A receiver window of half a term</b> ({@code rcv-wnd}, with {@code so-rcvbuf} and {@code so-sndbuf} to
 *   match): Aeron's default of 128 KiB lets a sender run only until the receiving driver's next status message,
 *   which a driver sharing two cores with the PEs sends late. The window is capped by what the kernel grants a socket
 *   ({@code net.core.rmem_max} and {@code wmem_max}): a window beyond the socket's buffer would have the kernel drop
 *   datagrams that then have to be resent (measured: 57 MB/s, against 143 MB/s with Aeron's defaults).</li>
 * </ul>
 * Between processes of one host (IPC) none of this applies: there the term is memory both map.
 */
final class UdpChannels {
    /** Smallest datagram payload {@code JHPVM_UDP_MTU} accepts. */
    static final int MIN_MTU = 256;
    /** Largest: a UDP datagram's payload less Aeron's frame alignment (Aeron's own limit). */
    static final int MAX_MTU = 65_504;
    /** The window we ask for: half of {@link AeronFabric#TERM_LENGTH}, the most Aeron allows. */
    static final int WINDOW_BYTES = AeronFabric.TERM_LENGTH / 2;
    /** Aeron's own default datagram payload, for a link whose MTU cannot be found. */
    static final int AERON_DEFAULT_MTU = 1_408;
    /** IPv6's header and UDP's: what a datagram adds to its payload at most. */
    private static final int IP_UDP_HEADER_BYTES = 48;
    /** Below this the kernel's cap is not worth asking for: Aeron's defaults stay. */
    private static final int MIN_WINDOW_BYTES = 128 * 1024;

    private final int mtu;
    private final int window;
    private final int sendBuffer;

    private UdpChannels(final int mtu, final int window, final int sendBuffer) {
        this.mtu = mtu;
        this.window = window;
        this.sendBuffer = sendBuffer;
    }

    /**
     * The parameters for this host.
     *
     * @param requestedMtu {@code JHPVM_UDP_MTU}, or 0 for the link's
     * @param bindAddress  this process's address (its interface's MTU is the link's)
     * @return the parameters
     */
    static UdpChannels forHost(final int requestedMtu, final String bindAddress) {
        return of(requestedMtu, interfaceMtu(bindAddress), kernelMax(Path.of("/proc/sys/net/core/rmem_max")),
            kernelMax(Path.of("/proc/sys/net/core/wmem_max")));
    }

    /**
     * The parameters for a host whose kernel grants sockets at most {@code rmemMax} and {@code wmemMax} bytes.
     *
     * @param requestedMtu {@code JHPVM_UDP_MTU}, or 0 for the link's
     * @param linkMtu      the MTU of this process's interface, or -1 if unknown
     * @param rmemMax      {@code net.core.rmem_max}, or -1 if unknown
     * @param wmemMax      {@code net.core.wmem_max}, or -1 if unknown
     * @return the parameters
     */
    static UdpChannels of(final int requestedMtu, final int linkMtu, final long rmemMax, final long wmemMax) {
        final int mtu = requestedMtu > 0 ? requestedMtu : linkMtu <= 0 ? AERON_DEFAULT_MTU
            : Math.max(MIN_MTU, Math.min(MAX_MTU, (linkMtu - IP_UDP_HEADER_BYTES) & ~31));
        final int window = rmemMax < MIN_WINDOW_BYTES ? 0 : (int) Math.min(WINDOW_BYTES, rmemMax);
        final int send = wmemMax < MIN_WINDOW_BYTES ? 0 : (int) Math.min(WINDOW_BYTES, wmemMax);
        return new UdpChannels(mtu, window, send);
    }

    /** @return the parameters a publication to another host appends to its URI */
    String publication() {
        return "|term-length=" + AeronFabric.TERM_LENGTH + "|mtu=" + mtu
            + (sendBuffer > 0 ? "|so-sndbuf=" + sendBuffer : "");
    }

    /** @return the parameters this process's UDP subscriptions append to their URI */
    String subscription() {
        return window > 0 ? "|rcv-wnd=" + window + "|so-rcvbuf=" + window : "";
    }

    /** @return the largest datagram payload a publication sends */
    int mtu() {
        return mtu;
    }

    /** @return the receiver window asked for, or 0 for Aeron's default */
    int window() {
        return window;
    }

    @Override
    public String toString() {
        return "UDP datagrams of up to " + mtu + " bytes, receiver window "
            + (window > 0 ? window + " bytes" : "Aeron's default");
    }

    /** The MTU of the interface holding {@code address}, or -1 if it cannot be found. */
    private static int interfaceMtu(final String address) {
        try {
            final NetworkInterface nif = NetworkInterface.getByInetAddress(InetAddress.getByName(address));
            return nif == null ? -1 : nif.getMTU();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A {@code /proc/sys/net/core} limit, or -1 where it cannot be read (not Linux). */
    private static long kernelMax(final Path file) {
        try {
            // Not readString: it trusts the size a /proc file reports and returned "4" of "4194304" (JDK 25).
            return Long.parseLong(Files.readAllLines(file).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
