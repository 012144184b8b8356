import Foundation
import Testing

@testable import HushEmbedding

@Suite struct ComputeInfoTests {
    /// The first processor of this development machine's `/proc/cpuinfo`: a virtual machine that names its
    /// CPU only "AMD EPYC", although the numbers say Zen (family 23, model 1), whose 256-bit FMAs run at
    /// half the rate of Zen 2's.
    static let zenVirtualMachine = """
        processor\t: 0
        vendor_id\t: AuthenticAMD
        cpu family\t: 23
        model\t\t: 1
        model name\t: AMD EPYC
        stepping\t: 2

        processor\t: 1
        vendor_id\t: AuthenticAMD
        cpu family\t: 25
        model\t\t: 1
        model name\t: Another CPU

        """

    @Test func namesTheCoreDesignBesideABareBrand() {
        #expect(ComputeInfo.describeCPU(cpuinfo: Self.zenVirtualMachine) == "AMD EPYC (Zen; family 23, model 1)")
        let rome = Self.zenVirtualMachine.replacingOccurrences(of: "model\t\t: 1\n", with: "model\t\t: 49\n")
        #expect(ComputeInfo.describeCPU(cpuinfo: rome) == "AMD EPYC (Zen 2; family 23, model 49)")
    }

    @Test func knowsEachZenGenerationByFamilyAndModel() {
        let cases: [(Int, Int, String)] = [
            (0x17, 0x01, "Zen"), (0x17, 0x11, "Zen"), (0x17, 0x08, "Zen+"), (0x17, 0x18, "Zen+"),
            (0x17, 0x31, "Zen 2"), (0x17, 0x71, "Zen 2"), (0x17, 0xA0, "Zen 2"),
            (0x19, 0x01, "Zen 3"), (0x19, 0x21, "Zen 3"), (0x19, 0x50, "Zen 3"),
            (0x19, 0x11, "Zen 4"), (0x19, 0x61, "Zen 4"), (0x19, 0xA0, "Zen 4"), (0x1A, 0x02, "Zen 5"),
        ]
        for (family, model, design) in cases {
            #expect(
                ComputeInfo.x86CoreDesign(vendor: "AuthenticAMD", family: family, model: model) == design,
                "family \(family) model \(model)")
        }
        #expect(ComputeInfo.x86CoreDesign(vendor: "GenuineIntel", family: 6, model: 143) == nil)
        #expect(ComputeInfo.x86CoreDesign(vendor: "AuthenticAMD", family: 0x15, model: 2) == nil)
    }

    @Test func keepsTheNumbersWhenTheDesignIsUnknownAndTheNameWithoutNumbers() {
        let intel =
            "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nmodel name\t: Intel(R) Xeon(R) Platinum 8488C\n"
        #expect(ComputeInfo.describeCPU(cpuinfo: intel) == "Intel(R) Xeon(R) Platinum 8488C (family 6, model 143)")
        let arm =
            "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nmodel name\t: ARMv8 Processor rev 1 (v8l)\n"
        #expect(ComputeInfo.describeCPU(cpuinfo: arm) == "ARMv8 Processor rev 1 (v8l)")
        // Older ARM kernels: the processors first, then one name for all of them.
        let named =
            "processor\t: 0\nBogoMIPS\t: 38.40\n\nprocessor\t: 1\nBogoMIPS\t: 38.40\n\nProcessor\t: ARMv7 rev 4 (v7l)\n"
        #expect(ComputeInfo.describeCPU(cpuinfo: named) == "ARMv7 rev 4 (v7l)")
        #expect(ComputeInfo.describeCPU(cpuinfo: "") == "unknown")
    }
}
