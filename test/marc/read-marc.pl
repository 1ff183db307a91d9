#!/usr/bin/perl
# Reads a file of MARC records in ISO 2709 and the same records in MARCXML with Perl's MARC
# modules (MARC::Record, MARC::File::USMARC, MARC::File::XML), as a library's systems person
# would, and prints what they found as JSON:
#   records      the 001 of each ISO 2709 record, in order
#   rewritten    records whose bytes differ from what MARC::Record writes again from the fields
#                it read (its own lengths, directory and base address)
#   xml          records whose MARCXML, written out as ISO 2709 by MARC::Record, differs from
#                the ISO 2709 record
#   decoding     MARC::Record's warnings while reading, by 001
#   lint         MARC::Lint's warnings, by 001
#   fields       each record as [tag, ind1, ind2, [code, value]...] or [tag, data] (with --fields)
# Usage: perl read-marc.pl FILE.mrc FILE.xml [--fields]
use strict;
use warnings;
use JSON::PP;
use MARC::File::USMARC;
use MARC::File::XML (BinaryEncoding => 'utf8', RecordFormat => 'USMARC');
use MARC::Lint;

my ($iso_file, $xml_file, $with_fields) = @ARGV;
open(my $in, '<:raw', $iso_file) or die "$iso_file: $!";
my $raw = do { local $/; <$in> };
close $in;

my (@records, @rewritten, @xml, %decoding, %lint, @fields);
my $lint = MARC::Lint->new;
my $xml = MARC::File::XML->in($xml_file) or die "$xml_file: cannot read";
for my $bytes (split /(?<=\x1D)/, $raw) {
    my $record = MARC::File::USMARC->decode($bytes);
    my $id = $record->field('001') ? $record->field('001')->data : '?';
    push @records, $id;
    my @warnings = $record->warnings;
    $decoding{$id} = [@warnings] if @warnings;
    push @rewritten, $id if usmarc($record) ne $bytes;
    my $from_xml = $xml->next;
    push @xml, $id if !defined $from_xml || usmarc($from_xml) ne $bytes;
    $lint->check_record($record);
    my @said = $lint->warnings;
    $lint{$id} = [@said] if @said;
    push @fields, [map { $_->is_control_field ? [$_->tag, $_->data] : [$_->tag, $_->indicator(1), $_->indicator(2), map { [@$_] } $_->subfields] } $record->fields] if $with_fields;
}
push @xml, 'extra records' if defined $xml->next;

# MARC::Record computes the lengths in bytes but hands back a string of characters: its bytes.
sub usmarc {
    my $text = shift->as_usmarc;
    utf8::encode($text) if utf8::is_utf8($text);
    return $text;
}

my $json = JSON::PP->new->canonical->utf8;
print $json->encode({ records => \@records, rewritten => \@rewritten, xml => \@xml, decoding => \%decoding, lint => \%lint, ($with_fields ? (fields => \@fields) : ()) });
