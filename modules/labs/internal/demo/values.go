// Package demo is the demonstration table of common adult lab reference
// values (chemistry, haematology, blood gases, endocrine, lipids, urine),
// each with its citation. Ranges vary between laboratories and methods;
// these are typical adult values from the cited works, for study only.
package demo

import (
	"fmt"
	"strings"
)

// Value is one demo row; the conventional pair is empty where the test has
// one unit only.
type Value struct {
	Group, Name, Range, Units, ConvRange, ConvUnits, AgeGroup, Specimen, Source, SourceURL string
}

type citation struct{ text, url string }

// sources are the cited works, by the key the table uses.
var sources = map[string]citation{
	"K": {"Kratz A, Ferraro M, Sluss PM, Lewandrowski KB. Case records of the Massachusetts General Hospital: laboratory reference values. N Engl J Med. 2004;351(15):1548-1563.",
		"https://doi.org/10.1056/NEJMcpc049016"},
	"T": {"Rifai N, Horvath AR, Wittwer CT, eds. Tietz Textbook of Clinical Chemistry and Molecular Diagnostics. 6th ed. St Louis: Elsevier; 2018.", ""},
	"ADA": {"American Diabetes Association Professional Practice Committee. 2. Diagnosis and classification of diabetes: Standards of Care in Diabetes-2024. Diabetes Care. 2024;47(Suppl 1):S20-S42.",
		"https://doi.org/10.2337/dc24-S002"},
	"ESC": {"Mach F, Baigent C, Catapano AL, et al. 2019 ESC/EAS Guidelines for the management of dyslipidaemias. Eur Heart J. 2020;41(1):111-188.",
		"https://doi.org/10.1093/eurheartj/ehz455"},
	"KDIGO": {"KDIGO CKD Work Group. KDIGO 2012 Clinical Practice Guideline for the Evaluation and Management of Chronic Kidney Disease. Kidney Int Suppl. 2013;3(1):1-150.",
		"https://kdigo.org/guidelines/ckd-evaluation-and-management/"},
	"WHO": {"World Health Organization. Haemoglobin concentrations for the diagnosis of anaemia and assessment of severity (WHO/NMH/NHD/MNM/11.1). Geneva: WHO; 2011.", ""},
	"IOM": {"Ross AC, Manson JE, Abrams SA, et al. The 2011 report on dietary reference intakes for calcium and vitamin D from the Institute of Medicine. J Clin Endocrinol Metab. 2011;96(1):53-58.",
		"https://doi.org/10.1210/jc.2010-2704"},
	"UDMI": {"Thygesen K, Alpert JS, Jaffe AS, et al. Fourth universal definition of myocardial infarction (2018). Eur Heart J. 2019;40(3):237-269.",
		"https://doi.org/10.1093/eurheartj/ehy462"},
	"HF": {"McDonagh TA, Metra M, Adamo M, et al. 2021 ESC Guidelines for the diagnosis and treatment of acute and chronic heart failure. Eur Heart J. 2021;42(36):3599-3726.",
		"https://doi.org/10.1093/eurheartj/ehab368"},
}

// table: group | name | SI range | SI units | conventional range | conventional units | age group | specimen | source key.
const table = `
Chemistry|Sodium|135–145|mmol/L|135–145|mEq/L|Adult|Serum|K
Chemistry|Potassium|3.5–5.0|mmol/L|3.5–5.0|mEq/L|Adult|Serum|K
Chemistry|Chloride|98–106|mmol/L|98–106|mEq/L|Adult|Serum|K
Chemistry|Bicarbonate (total CO2)|22–29|mmol/L|22–29|mEq/L|Adult|Serum|T
Chemistry|Anion gap|7–16|mmol/L|7–16|mEq/L|Adult|Serum|K
Chemistry|Urea nitrogen (BUN)|2.9–8.9|mmol/L urea|8–25|mg/dL|Adult|Serum|K
Chemistry|Creatinine|62–115|µmol/L|0.7–1.3|mg/dL|Adult male|Serum|K
Chemistry|Creatinine|53–97|µmol/L|0.6–1.1|mg/dL|Adult female|Serum|K
Chemistry|Estimated GFR (CKD-EPI)|≥ 90 (G1); 60–89 mildly decreased (G2)|mL/min/1.73 m²|||Adult|Serum (calculated)|KDIGO
Chemistry|Cystatin C|0.6–1.0|mg/L|||Adult|Serum|T
Chemistry|Osmolality|275–295|mOsm/kg|||Adult|Serum|K
Chemistry|Osmolal gap|< 10|mOsm/kg|||Adult|Serum (calculated)|T
Chemistry|Glucose (fasting)|3.9–5.5|mmol/L|70–99|mg/dL|Adult|Plasma (fluoride)|ADA
Chemistry|Glucose (2 h after 75 g oral load)|< 7.8|mmol/L|< 140|mg/dL|Adult|Plasma (fluoride)|ADA
Chemistry|Calcium (total)|2.15–2.55|mmol/L|8.6–10.2|mg/dL|Adult|Serum|T
Chemistry|Calcium (ionised)|1.12–1.32|mmol/L|4.5–5.3|mg/dL|Adult|Whole blood (heparin)|T
Chemistry|Magnesium|0.70–1.00|mmol/L|1.7–2.4|mg/dL|Adult|Serum|T
Chemistry|Phosphate (inorganic)|0.81–1.45|mmol/L|2.5–4.5|mg/dL|Adult|Serum|K
Chemistry|Uric acid|0.21–0.43|mmol/L|3.5–7.2|mg/dL|Adult male|Serum|T
Chemistry|Uric acid|0.15–0.36|mmol/L|2.6–6.0|mg/dL|Adult female|Serum|T
Chemistry|Total protein|60–80|g/L|6.0–8.0|g/dL|Adult|Serum|K
Chemistry|Albumin|35–50|g/L|3.5–5.0|g/dL|Adult|Serum|K
Chemistry|Prealbumin (transthyretin)|0.20–0.40|g/L|20–40|mg/dL|Adult|Serum|T
Chemistry|Bilirubin (total)|5–21|µmol/L|0.3–1.2|mg/dL|Adult|Serum|T
Chemistry|Bilirubin (conjugated)|0–5|µmol/L|0–0.3|mg/dL|Adult|Serum|T
Chemistry|Alanine aminotransferase (ALT)|7–41|U/L|||Adult|Serum|K
Chemistry|Aspartate aminotransferase (AST)|12–38|U/L|||Adult|Serum|K
Chemistry|Alkaline phosphatase (ALP)|33–131|U/L|||Adult|Serum|K
Chemistry|Gamma-glutamyl transferase (GGT)|9–58|U/L|||Adult|Serum|K
Chemistry|Lactate dehydrogenase (LDH)|115–221|U/L|||Adult|Serum|K
Chemistry|Amylase|20–96|U/L|||Adult|Serum|K
Chemistry|Lipase|3–43|U/L (method-dependent)|||Adult|Serum|K
Chemistry|Creatine kinase (CK)|39–308|U/L|||Adult male|Serum|K
Chemistry|Creatine kinase (CK)|26–192|U/L|||Adult female|Serum|K
Chemistry|Troponin T (high-sensitivity)|< 14 (99th percentile)|ng/L|< 0.014|ng/mL|Adult|Serum|UDMI
Chemistry|NT-proBNP|< 125 (chronic heart failure unlikely)|ng/L|< 125|pg/mL|Adult|Plasma|HF
Chemistry|BNP|< 35 (chronic heart failure unlikely)|ng/L|< 35|pg/mL|Adult|Plasma (EDTA)|HF
Chemistry|C-reactive protein (CRP)|< 8|mg/L|< 0.8|mg/dL|Adult|Serum|K
Chemistry|Procalcitonin|< 0.05|µg/L|< 0.05|ng/mL|Adult|Serum|T
Chemistry|Ammonia|11–32|µmol/L|19–54|µg/dL|Adult|Plasma (EDTA, on ice)|T
Chemistry|Beta-hydroxybutyrate|< 0.4|mmol/L|< 4.2|mg/dL|Adult|Serum|T
Chemistry|Immunoglobulin G (IgG)|7.0–16.0|g/L|700–1600|mg/dL|Adult|Serum|K
Chemistry|Immunoglobulin A (IgA)|0.7–4.0|g/L|70–400|mg/dL|Adult|Serum|K
Chemistry|Immunoglobulin M (IgM)|0.4–2.3|g/L|40–230|mg/dL|Adult|Serum|K
Chemistry|Complement C3|0.9–1.8|g/L|90–180|mg/dL|Adult|Serum|T
Chemistry|Complement C4|0.1–0.4|g/L|10–40|mg/dL|Adult|Serum|T
Chemistry|Ceruloplasmin|0.20–0.60|g/L|20–60|mg/dL|Adult|Serum|T
Chemistry|Copper|11–22|µmol/L|70–140|µg/dL|Adult|Serum|K
Chemistry|Zinc|11–18|µmol/L|70–120|µg/dL|Adult|Serum|T
Chemistry|Alpha-1 antitrypsin|1.0–2.0|g/L|100–200|mg/dL|Adult|Serum|T
Haematology|Haemoglobin|130–175|g/L|13.0–17.5|g/dL|Adult male|Whole blood (EDTA)|WHO
Haematology|Haemoglobin|120–155|g/L|12.0–15.5|g/dL|Adult female (not pregnant)|Whole blood (EDTA)|WHO
Haematology|Haematocrit|0.40–0.52|L/L|40–52|%|Adult male|Whole blood (EDTA)|K
Haematology|Haematocrit|0.36–0.47|L/L|36–47|%|Adult female|Whole blood (EDTA)|K
Haematology|Red cell count|4.5–5.9|×10¹²/L|4.5–5.9|×10⁶/µL|Adult male|Whole blood (EDTA)|K
Haematology|Red cell count|4.0–5.2|×10¹²/L|4.0–5.2|×10⁶/µL|Adult female|Whole blood (EDTA)|K
Haematology|Mean cell volume (MCV)|80–100|fL|80–100|µm³|Adult|Whole blood (EDTA)|K
Haematology|Mean cell haemoglobin (MCH)|26–34|pg/cell|26–34|pg/cell|Adult|Whole blood (EDTA)|K
Haematology|Mean cell haemoglobin concentration (MCHC)|310–370|g/L|31–37|g/dL|Adult|Whole blood (EDTA)|K
Haematology|Red cell distribution width (RDW)|11.5–14.5|%|||Adult|Whole blood (EDTA)|K
Haematology|Reticulocytes|0.5–2.5|% of red cells|||Adult|Whole blood (EDTA)|K
Haematology|Reticulocytes (absolute)|25–100|×10⁹/L|25–100|×10³/µL|Adult|Whole blood (EDTA)|T
Haematology|White cell count|4.0–11.0|×10⁹/L|4.0–11.0|×10³/µL|Adult|Whole blood (EDTA)|K
Haematology|Neutrophils|1.8–7.7|×10⁹/L|1.8–7.7|×10³/µL|Adult|Whole blood (EDTA)|K
Haematology|Lymphocytes|1.0–4.8|×10⁹/L|1.0–4.8|×10³/µL|Adult|Whole blood (EDTA)|K
Haematology|Monocytes|0.2–0.8|×10⁹/L|0.2–0.8|×10³/µL|Adult|Whole blood (EDTA)|T
Haematology|Eosinophils|0.0–0.45|×10⁹/L|0–450|/µL|Adult|Whole blood (EDTA)|K
Haematology|Basophils|0.0–0.2|×10⁹/L|0–200|/µL|Adult|Whole blood (EDTA)|K
Haematology|Platelets|150–400|×10⁹/L|150–400|×10³/µL|Adult|Whole blood (EDTA)|K
Haematology|Mean platelet volume (MPV)|7.5–11.5|fL|||Adult|Whole blood (EDTA)|T
Haematology|Erythrocyte sedimentation rate (ESR)|0–15|mm/h|||Adult male (under 50)|Whole blood (citrate)|K
Haematology|Erythrocyte sedimentation rate (ESR)|0–20|mm/h|||Adult female (under 50)|Whole blood (citrate)|K
Haematology|Prothrombin time (PT)|11.1–13.1|s|||Adult|Plasma (citrate)|K
Haematology|International normalised ratio (INR)|0.9–1.1|ratio|||Adult (no anticoagulant)|Plasma (citrate)|K
Haematology|Activated partial thromboplastin time (APTT)|22.1–34.1|s|||Adult|Plasma (citrate)|K
Haematology|Thrombin time|14.0–19.0|s|||Adult|Plasma (citrate)|T
Haematology|Fibrinogen|2.0–4.0|g/L|200–400|mg/dL|Adult|Plasma (citrate)|K
Haematology|D-dimer|< 0.5|mg/L FEU|< 500|ng/mL FEU|Adult|Plasma (citrate)|K
Haematology|Haptoglobin|0.3–2.0|g/L|30–200|mg/dL|Adult|Serum|T
Haematology|Ferritin|30–400|µg/L|30–400|ng/mL|Adult male|Serum|K
Haematology|Ferritin|13–150|µg/L|13–150|ng/mL|Adult female|Serum|K
Haematology|Iron|9–30|µmol/L|50–170|µg/dL|Adult|Serum|K
Haematology|Total iron-binding capacity (TIBC)|45–72|µmol/L|250–400|µg/dL|Adult|Serum|K
Haematology|Transferrin|2.0–3.6|g/L|200–360|mg/dL|Adult|Serum|T
Haematology|Transferrin saturation|20–50|%|||Adult|Serum (calculated)|K
Haematology|Vitamin B12|148–664|pmol/L|200–900|pg/mL|Adult|Serum|T
Haematology|Folate|> 6.8|nmol/L|> 3.0|ng/mL|Adult|Serum|T
Blood gases|pH|7.35–7.45|pH units|||Adult|Arterial blood|K
Blood gases|PaCO2|4.7–6.0|kPa|35–45|mmHg|Adult|Arterial blood|K
Blood gases|PaO2 (breathing air, sea level)|10.5–13.5|kPa|80–100|mmHg|Adult|Arterial blood|K
Blood gases|Bicarbonate (actual)|22–26|mmol/L|22–26|mEq/L|Adult|Arterial blood|T
Blood gases|Base excess|−2 to +2|mmol/L|−2 to +2|mEq/L|Adult|Arterial blood|T
Blood gases|Oxygen saturation (SaO2)|0.95–1.00|fraction|95–100|%|Adult|Arterial blood|K
Blood gases|Lactate|0.5–2.2|mmol/L|4.5–19.8|mg/dL|Adult|Arterial or venous blood|K
Blood gases|Alveolar–arterial O2 gradient (breathing air)|< 2.0|kPa|< 15|mmHg|Young adult|Arterial blood (calculated)|T
Blood gases|Carboxyhaemoglobin|< 0.03|fraction|< 3|% (non-smoker)|Adult|Arterial or venous blood|T
Blood gases|Methaemoglobin|< 0.015|fraction|< 1.5|%|Adult|Arterial or venous blood|T
Blood gases|pH (venous)|7.31–7.41|pH units|||Adult|Venous blood|T
Blood gases|PvCO2 (venous)|5.3–6.7|kPa|40–50|mmHg|Adult|Venous blood|T
Blood gases|Bicarbonate (venous)|23–29|mmol/L|23–29|mEq/L|Adult|Venous blood|T
Endocrine|Thyroid-stimulating hormone (TSH)|0.4–4.0|mU/L|0.4–4.0|µIU/mL|Adult|Serum|K
Endocrine|Free thyroxine (FT4)|12–22|pmol/L|0.9–1.7|ng/dL|Adult|Serum|T
Endocrine|Free triiodothyronine (FT3)|3.1–6.8|pmol/L|2.0–4.4|pg/mL|Adult|Serum|T
Endocrine|Total thyroxine (T4)|66–155|nmol/L|5.1–12.0|µg/dL|Adult|Serum|T
Endocrine|Parathyroid hormone (PTH)|1.6–6.9|pmol/L|15–65|pg/mL|Adult|Plasma (EDTA)|T
Endocrine|25-hydroxyvitamin D|50–125 (sufficient)|nmol/L|20–50|ng/mL|Adult|Serum|IOM
Endocrine|Cortisol (08:00)|138–635|nmol/L|5–23|µg/dL|Adult|Serum|K
Endocrine|Adrenocorticotropic hormone (ACTH, 08:00)|1.6–13.9|pmol/L|7.2–63.3|pg/mL|Adult|Plasma (EDTA, on ice)|T
Endocrine|Haemoglobin A1c|< 39 (normal); 39–47 prediabetes|mmol/mol|< 5.7; 5.7–6.4|%|Adult|Whole blood (EDTA)|ADA
Endocrine|Insulin (fasting)|18–173|pmol/L|2.6–24.9|µU/mL|Adult|Serum|T
Endocrine|C-peptide (fasting)|0.37–1.47|nmol/L|1.1–4.4|ng/mL|Adult|Serum|T
Endocrine|Prolactin|4–15|µg/L|4–15|ng/mL|Adult male|Serum|T
Endocrine|Prolactin|4–23|µg/L|4–23|ng/mL|Adult female (not pregnant)|Serum|T
Endocrine|Testosterone (total, morning)|8.6–29.0|nmol/L|250–836|ng/dL|Adult male|Serum|T
Endocrine|Testosterone (total)|0.3–2.4|nmol/L|8–70|ng/dL|Adult female|Serum|T
Endocrine|Sex hormone-binding globulin (SHBG)|10–57|nmol/L|||Adult male|Serum|T
Endocrine|Luteinising hormone (LH)|1.5–9.3|IU/L|1.5–9.3|mIU/mL|Adult male|Serum|K
Endocrine|Follicle-stimulating hormone (FSH)|1.4–18.1|IU/L|1.4–18.1|mIU/mL|Adult male|Serum|K
Endocrine|Oestradiol|40–160|pmol/L|10–40|pg/mL|Adult male|Serum|T
Endocrine|Human chorionic gonadotropin (hCG)|< 5|IU/L|< 5|mIU/mL|Adult female (not pregnant)|Serum|T
Endocrine|Growth hormone (random)|< 5|µg/L|< 5|ng/mL|Adult|Serum|T
Endocrine|Aldosterone (upright, morning)|111–860|pmol/L|4–31|ng/dL|Adult|Plasma|T
Endocrine|Plasma free metanephrine|< 0.5|nmol/L|< 99|pg/mL|Adult|Plasma (EDTA)|T
Lipids|Total cholesterol|< 5.0 (desirable)|mmol/L|< 190|mg/dL|Adult|Serum|ESC
Lipids|LDL cholesterol|< 3.0 (low-risk target)|mmol/L|< 116|mg/dL|Adult|Serum|ESC
Lipids|HDL cholesterol|> 1.0|mmol/L|> 40|mg/dL|Adult male|Serum|ESC
Lipids|HDL cholesterol|> 1.2|mmol/L|> 46|mg/dL|Adult female|Serum|ESC
Lipids|Triglycerides (fasting)|< 1.7|mmol/L|< 150|mg/dL|Adult|Serum|ESC
Lipids|Non-HDL cholesterol|< 3.8 (low-risk target)|mmol/L|< 145|mg/dL|Adult|Serum|ESC
Lipids|Apolipoprotein B|< 1.0 (moderate-risk target)|g/L|< 100|mg/dL|Adult|Serum|ESC
Lipids|Lipoprotein(a)|< 75|nmol/L|< 30|mg/dL|Adult|Serum|ESC
Urine|Specific gravity|1.005–1.030|ratio|||Adult|Urine (random)|K
Urine|pH|4.5–8.0|pH units|||Adult|Urine (random)|K
Urine|Osmolality|50–1200|mOsm/kg|||Adult|Urine (random)|K
Urine|Albumin:creatinine ratio|< 3 (A1)|mg/mmol|< 30|mg/g|Adult|Urine (random)|KDIGO
Urine|Protein:creatinine ratio|< 15|mg/mmol|< 150|mg/g|Adult|Urine (random)|KDIGO
Urine|Protein (24 h)|< 0.15|g/day|< 150|mg/day|Adult|Urine (24-hour)|K
Urine|Albumin (24 h)|< 30 (A1)|mg/day|||Adult|Urine (24-hour)|KDIGO
Urine|Creatinine (24 h)|8.8–17.7|mmol/day|1.0–2.0|g/day|Adult male|Urine (24-hour)|K
Urine|Creatinine (24 h)|7.1–15.9|mmol/day|0.8–1.8|g/day|Adult female|Urine (24-hour)|K
Urine|Creatinine clearance|97–137|mL/min|||Adult male|Urine (24-hour) and serum|T
Urine|Creatinine clearance|88–128|mL/min|||Adult female|Urine (24-hour) and serum|T
Urine|Sodium (24 h)|40–220|mmol/day|40–220|mEq/day|Adult (diet-dependent)|Urine (24-hour)|K
Urine|Potassium (24 h)|25–125|mmol/day|25–125|mEq/day|Adult (diet-dependent)|Urine (24-hour)|K
Urine|Calcium (24 h)|< 7.5|mmol/day|< 300|mg/day|Adult male|Urine (24-hour)|K
Urine|Calcium (24 h)|< 6.2|mmol/day|< 250|mg/day|Adult female|Urine (24-hour)|K
Urine|Phosphate (24 h)|13–42|mmol/day|0.4–1.3|g/day|Adult|Urine (24-hour)|K
Urine|Uric acid (24 h)|1.5–4.5|mmol/day|250–750|mg/day|Adult|Urine (24-hour)|K
Urine|Urea nitrogen (24 h)|430–710|mmol/day|12–20|g/day|Adult|Urine (24-hour)|K
Urine|Cortisol, free (24 h)|28–138|nmol/day|10–50|µg/day|Adult|Urine (24-hour)|T
Urine|Glucose|Negative|qualitative (dipstick)|||Adult|Urine (random)|K
Urine|Ketones|Negative|qualitative (dipstick)|||Adult|Urine (random)|K
Urine|Bilirubin|Negative|qualitative (dipstick)|||Adult|Urine (random)|K
Urine|Urobilinogen|3–16|µmol/L|0.2–1.0|mg/dL|Adult|Urine (random)|T
Urine|Nitrite|Negative|qualitative (dipstick)|||Adult|Urine (random)|T
Urine|Leukocyte esterase|Negative|qualitative (dipstick)|||Adult|Urine (random)|T
Urine|Red cells (microscopy)|0–2|per high-power field|||Adult|Urine (random, centrifuged)|K
Urine|White cells (microscopy)|0–5|per high-power field|||Adult|Urine (random, centrifuged)|K
`

// Values parses the table; a malformed row or an unknown source is a
// programming error caught by the package's test.
func Values() ([]Value, error) {
	var out []Value
	for i, line := range strings.Split(strings.TrimSpace(table), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 9 {
			return nil, fmt.Errorf("demo lab values: row %d has %d fields, want 9", i+1, len(f))
		}
		src, ok := sources[f[8]]
		if !ok {
			return nil, fmt.Errorf("demo lab values: row %d cites unknown source %q", i+1, f[8])
		}
		out = append(out, Value{Group: f[0], Name: f[1], Range: f[2], Units: f[3], ConvRange: f[4], ConvUnits: f[5],
			AgeGroup: f[6], Specimen: f[7], Source: src.text, SourceURL: src.url})
	}
	return out, nil
}
