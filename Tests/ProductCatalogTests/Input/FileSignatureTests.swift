import ProductCatalog
import Testing

@Suite struct FileSignatureTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], FileSignature.png),
        ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("GIF89a".utf8), .gif),
        (Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8".utf8), .webp),
        (Array("%PDF-1.7\n".utf8), .pdf),
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], .zip),
        ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], .oldExcel),
        ([0xFF, 0xFE, 0x70, 0x00], .utf16),
        (Array("productId".utf8).flatMap { [$0, 0] }, .utf16),
        ([1, 0, 2, 0, 0, 0, 9, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], .binary),
        ([UInt8](repeating: 0, count: 512), .binary),
    ] as [([UInt8], FileSignature)])
    func filesThatAreNotTextAreNamed(bytes: [UInt8], expected: FileSignature) {
        #expect(bytes.withUnsafeBufferPointer { FileSignature.of($0) } == expected)
    }

    @Test(arguments: ["productId,title\n", "\u{FEFF}sku;name\n", "id\ttitle\n", "productId,ti\u{0}tle\n", ""])
    func textIsNotNamed(text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { FileSignature.of($0) } == nil)
    }

    @Test func anImportOfAWorkbookSaysWhatToDo() throws {
        let fixture = try CatalogFixture()
        #expect {
            try fixture.importCSV(String(decoding: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x0A], as: UTF8.self))
        } throws: { error in
            String(describing: error).contains("is an Excel workbook (.xlsx) or another ZIP archive, not a CSV file. Open it in the spreadsheet program and save it as CSV (UTF-8)")
        }
    }
}
