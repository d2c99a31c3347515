// Loads libsha at run time, without compiling against it: Java 17's foreign-function API
// (incubating in 17, so it needs the flags below). No JNI glue, no jar.
//   java --add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED Sha256.java <libsha.so> <message>
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;
import jdk.incubator.foreign.SymbolLookup;

public class Sha256 {
    public static void main(String[] args) throws Throwable {
        System.load(args[0]);
        MemoryAddress symbol = SymbolLookup.loaderLookup().lookup("libsha_sha256").orElseThrow();
        // int libsha_sha256(const void *data, size_t len, unsigned char out[32])
        MethodHandle sha256 = CLinker.getInstance().downcallHandle(symbol,
                MethodType.methodType(int.class, MemoryAddress.class, long.class, MemoryAddress.class),
                FunctionDescriptor.of(CLinker.C_INT, CLinker.C_POINTER, CLinker.C_LONG_LONG, CLinker.C_POINTER));
        byte[] message = args[1].getBytes(StandardCharsets.UTF_8);
        try (ResourceScope scope = ResourceScope.newConfinedScope()) {
            MemorySegment in = MemorySegment.allocateNative(Math.max(1, message.length), scope);
            in.copyFrom(MemorySegment.ofArray(message));
            MemorySegment out = MemorySegment.allocateNative(32, scope);
            int rc = (int) sha256.invokeExact(in.address(), (long) message.length, out.address());
            if (rc != 0) throw new IllegalStateException("libsha_sha256 returned " + rc);
            StringBuilder hex = new StringBuilder();
            for (byte b : out.toByteArray()) hex.append(String.format("%02x", b));
            System.out.println(hex);
        }
    }
}
